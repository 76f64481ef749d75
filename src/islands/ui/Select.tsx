import { useId, type SelectHTMLAttributes } from 'react';
import { inputClass } from './Field.tsx';
import { useKeptInput } from './hydration.ts';

/** A native select with a label (visible, or screen-reader only with `hideLabel`). */
export function Select({
  label,
  options,
  hideLabel = false,
  error,
  id,
  className = '',
  ...rest
}: SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  options: { value: string; label: string }[];
  hideLabel?: boolean;
  error?: string;
}) {
  const auto = useId();
  const selectId = id ?? auto;
  const ref = useKeptInput<HTMLSelectElement>(rest.value, rest.onChange);
  return (
    <div className="space-y-1.5">
      <label htmlFor={selectId} className={hideLabel ? 'sr-only' : 'block text-sm font-medium'}>
        {label}
      </label>
      <select ref={ref} id={selectId} className={inputClass(!!error, `h-10 ${className}`)} aria-invalid={error ? true : undefined} {...rest}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error && <p className="text-sm text-danger">{error}</p>}
    </div>
  );
}
