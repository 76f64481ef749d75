import { useId, type TextareaHTMLAttributes } from 'react';
import { inputClass } from './Field.tsx';
import { useKeptInput } from './hydration.ts';

export function Textarea({
  label,
  error,
  id,
  className = '',
  ...rest
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; error?: string }) {
  const auto = useId();
  const areaId = id ?? auto;
  const ref = useKeptInput<HTMLTextAreaElement>(rest.value, rest.onChange);
  return (
    <div className="space-y-1.5">
      <label htmlFor={areaId} className="block text-sm font-medium">
        {label}
      </label>
      <textarea ref={ref} id={areaId} className={inputClass(!!error, className)} aria-invalid={error ? true : undefined} {...rest} />
      {error && <p className="text-sm text-danger">{error}</p>}
    </div>
  );
}
