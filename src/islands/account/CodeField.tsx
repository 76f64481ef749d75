// The one input for a code (issue 56): an app's 6 digits (the phone's keyboard shows digits and
// may offer the code itself) or, with `recovery`, a recovery code.
import { Field } from '../ui/Field.tsx';

export function CodeField({
  value,
  onChange,
  error,
  label,
  recovery = false,
  autoFocus = false,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  label: string;
  recovery?: boolean;
  autoFocus?: boolean;
}) {
  return (
    <Field
      label={label}
      name={recovery ? 'recoveryCode' : 'code'}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      autoFocus={autoFocus}
      autoComplete={recovery ? 'off' : 'one-time-code'}
      inputMode={recovery ? 'text' : 'numeric'}
      autoCapitalize="none"
      spellCheck={false}
      maxLength={recovery ? 24 : 7}
      placeholder={recovery ? 'xxxx-xxxx-xxxx-xxxx' : '123456'}
      className="max-w-56 font-mono tracking-widest"
    />
  );
}
