import { useState, type FormEvent } from 'react';
import { apiJson, errorMessage } from '../shared/api.ts';
import { fieldErrors } from '../shared/forms.ts';
import { clientLoginSchema } from '../shared/schemas/auth.ts';
import { toast, toastAfterNavigation } from '../shared/toast.ts';
import { Button } from './ui/Button.tsx';
import { Field, PasswordField } from './ui/Field.tsx';

/** Client portal sign-in (001 §2, §5, §8). */
export default function ClientLogin() {
  const [values, setValues] = useState({ username: '', password: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const { data, errors: errs } = fieldErrors(clientLoginSchema, values);
    setErrors(errs);
    if (!data) return;
    setPending(true);
    try {
      const { clientUser } = await apiJson<{ clientUser: { username: string } }>('POST', '/api/client/login', data);
      toastAfterNavigation({ title: 'Login successful', description: `Welcome back, ${clientUser.username}!` });
      window.location.assign('/client/dashboard');
    } catch (err) {
      toast({ title: 'Login failed', description: errorMessage(err, 'Invalid credentials'), variant: 'destructive' });
      setPending(false);
    }
  }

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Client sign-in">
      <Field
        label="Username"
        name="username"
        autoComplete="username"
        value={values.username}
        onChange={(e) => setValues((v) => ({ ...v, username: e.target.value }))}
        error={errors.username}
        placeholder="Enter your username"
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
