import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import { useHydrated, useKeptInput } from './hydration.ts';

export const inputClass = (invalid = false, extra = '') =>
  `block w-full rounded-md border bg-raised px-3 py-2 text-sm text-fg placeholder:text-fg-muted ${
    invalid ? 'border-red-600 ring-1 ring-red-600' : 'border-line'
  } ${extra}`;

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  hint?: ReactNode;
}

/** A labelled input with its validation message underneath and an error border. */
export function Field({ label, error, hint, id, className = '', ...rest }: FieldProps) {
  const auto = useId();
  const inputId = id ?? auto;
  const ref = useKeptInput<HTMLInputElement>(rest.type === 'checkbox' || rest.type === 'radio' ? rest.checked : rest.value, rest.onChange);
  return (
    <div className="space-y-1.5">
      <label htmlFor={inputId} className="block text-sm font-medium">
        {label}
      </label>
      <input
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
        className={inputClass(!!error, className)}
        {...rest}
      />
      {hint && !error && <p className="text-xs text-fg-muted">{hint}</p>}
      {error && (
        <p id={`${inputId}-error`} className="text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

/** Password input with a show/hide toggle; `hint` (the rules, issue 53) is read with the field. */
export function PasswordField({ label, error, hint, id, ...rest }: FieldProps) {
  const auto = useId();
  const inputId = id ?? auto;
  const [shown, setShown] = useState(false);
  const ref = useKeptInput<HTMLInputElement>(rest.value, rest.onChange);
  const hydrated = useHydrated();
  return (
    <div className="space-y-1.5">
      <label htmlFor={inputId} className="block text-sm font-medium">
        {label}
      </label>
      <div className="relative">
        <input
          ref={ref}
          id={inputId}
          type={shown ? 'text' : 'password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : hint ? `${inputId}-hint` : undefined}
          className={inputClass(!!error, 'pr-10')}
          {...rest}
        />
        <button
          type="button"
          onClick={() => setShown((s) => !s)}
          disabled={!hydrated}
          aria-label={shown ? 'Hide password' : 'Show password'}
          aria-pressed={shown}
          className="absolute inset-y-0 right-0 flex w-10 items-center justify-center text-fg-muted hover:text-fg"
        >
          {shown ? <EyeOff size={16} aria-hidden="true" /> : <Eye size={16} aria-hidden="true" />}
        </button>
      </div>
      {hint && !error && (
        <p id={`${inputId}-hint`} className="text-xs text-fg-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${inputId}-error`} className="text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
