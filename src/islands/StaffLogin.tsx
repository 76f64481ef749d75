import { useState, type FormEvent } from 'react';
import { apiJson, errorMessage } from '../shared/api.ts';
import { fieldErrors, withRetries } from '../shared/forms.ts';
import { landingFor } from '../shared/landing.ts';
import { staffLoginSchema } from '../shared/schemas/auth.ts';
import { toast, toastAfterNavigation } from '../shared/toast.ts';
import { Button } from './ui/Button.tsx';
import { Field, PasswordField } from './ui/Field.tsx';

/** Staff sign-in form (000 §2, §5, §8). */
export default function StaffLogin() {
  const [values, setValues] = useState({ username: '', password: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const { data, errors: errs } = fieldErrors(staffLoginSchema, values);
    setErrors(errs);
    if (!data) return;
    setPending(true);
    try {
      const user = await apiJson<{ username: string }>('POST', '/api/login', data);
      toastAfterNavigation({ title: 'Login successful', description: `Welcome back, ${user.username}!` });
      let target = '/';
      try {
        const roles = await withRetries(() => apiJson<{ name: string }[]>('GET', '/api/user/roles'), 3, 1000);
        target = landingFor(roles.map((r) => r.name));
      } catch (err) {
        console.error('Could not load roles', err);
      }
      window.location.assign(target);
    } catch (err) {
      toast({ title: 'Login failed', description: errorMessage(err), variant: 'destructive' });
      setPending(false);
    }
  }

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Staff sign-in">
      <Field
        label="Username or Email"
        name="username"
        autoComplete="username"
        value={values.username}
        onChange={(e) => setValues((v) => ({ ...v, username: e.target.value }))}
        error={errors.username}
        placeholder="Enter your username or email"
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
