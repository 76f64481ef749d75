import type { InputHTMLAttributes } from 'react';
import { Search } from 'lucide-react';
import { inputClass } from './Field.tsx';
import { useKeptInput } from './hydration.ts';

/** A search box with its icon; `label` names it for screen readers. */
export function SearchInput({
  label,
  value,
  onValueChange,
  className = '',
  wrapperClassName = '',
  ...rest
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'type'> & {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  wrapperClassName?: string;
}) {
  const onChange = (e: { target: { value: string } }) => onValueChange(e.target.value);
  const ref = useKeptInput<HTMLInputElement>(value, onChange);
  return (
    <div className={`relative ${wrapperClassName}`}>
      <Search size={16} aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-fg-muted" />
      <input
        type="search"
        aria-label={label}
        value={value}
        ref={ref}
        onChange={onChange}
        className={inputClass(false, `pl-9 ${className}`)}
        {...rest}
      />
    </div>
  );
}
