import { useId } from 'react';
import { useKeptInput } from './hydration.ts';

/** A checkbox styled as a switch (role="switch"), labelled. */
export function Switch({
  label,
  checked,
  onChange,
  description,
  disabled,
  id,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  description?: string;
  disabled?: boolean;
  id?: string;
}) {
  const auto = useId();
  const inputId = id ?? auto;
  const ref = useKeptInput<HTMLInputElement>(checked, (e) => onChange(e.target.checked));
  return (
    <div className="flex items-center justify-between gap-4">
      <label htmlFor={inputId} className="text-sm">
        <span className="font-medium">{label}</span>
        {description && <span className="block text-xs text-fg-muted">{description}</span>}
      </label>
      <input
        ref={ref}
        id={inputId}
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        className="relative h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-line transition-colors before:absolute before:left-0.5 before:top-0.5 before:h-5 before:w-5 before:rounded-full before:bg-white before:shadow before:transition-transform checked:bg-accent checked:before:translate-x-5 disabled:opacity-50"
      />
    </div>
  );
}
