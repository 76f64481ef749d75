import { useState, type FormEvent } from 'react';
import { useClearFixedErrors } from './useLiveErrors.ts';
import type { ZodType } from 'zod';
import { fieldErrors } from '../../shared/forms.ts';
import { Button } from './Button.tsx';
import { Field, PasswordField } from './Field.tsx';

interface Credentials {
  username: string;
  password: string;
}

/** Username + password form shared by the staff and client sign-in pages. */
export function SignInForm({
  schema,
  usernameLabel,
  usernamePlaceholder,
  ariaLabel,
  onSubmit,
}: {
  schema: ZodType<Credentials>;
  usernameLabel: string;
  usernamePlaceholder: string;
  ariaLabel: string;
  /** Resolves when the form may be used again (a failed sign-in); navigates away on success. */
  onSubmit: (credentials: Credentials) => Promise<void>;
}) {
  const [values, setValues] = useState<Credentials>({ username: '', password: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  useClearFixedErrors(values, (v) => fieldErrors(schema, v).errors, setErrors);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const { data, errors: errs } = fieldErrors(schema, values);
    setErrors(errs);
    if (!data) return;
    setPending(true);
    try {
      await onSubmit(data);
    } finally {
      setPending(false);
    }
  }

  return (
    <form method="post" onSubmit={submit} noValidate className="space-y-5" aria-label={ariaLabel}>
      <Field
        label={usernameLabel}
        name="username"
        autoComplete="username"
        value={values.username}
        onChange={(e) => setValues((v) => ({ ...v, username: e.target.value }))}
        error={errors.username}
        placeholder={usernamePlaceholder}
      />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="current-password"
        value={values.password}
        onChange={(e) => setValues((v) => ({ ...v, password: e.target.value }))}
        error={errors.password}
        placeholder="Enter your password"
      />
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending ? 'Signing In...' : 'Sign In'}
      </Button>
    </form>
  );
}
