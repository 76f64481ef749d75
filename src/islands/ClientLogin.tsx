import { apiJson, errorMessage } from '../shared/api.ts';
import { clientLoginSchema } from '../shared/schemas/auth.ts';
import { safeReturnPath } from '../shared/landing.ts';
import { toast, toastAfterNavigation } from '../shared/toast.ts';
import { SignInForm } from './ui/SignInForm.tsx';

/** Client portal sign-in (001 §2, §5, §8). */
export default function ClientLogin() {
  async function signIn(credentials: { username: string; password: string }) {
    try {
      const { clientUser } = await apiJson<{ clientUser: { username: string } }>('POST', '/api/client/login', credentials);
      toastAfterNavigation({ title: 'Login successful', description: `Welcome back, ${clientUser.username}!` });
    } catch (err) {
      toast({ title: 'Login failed', description: errorMessage(err, 'Invalid credentials'), variant: 'destructive' });
      return;
    }
    const next = safeReturnPath(new URLSearchParams(window.location.search).get('next'));
    window.location.assign(next?.startsWith('/client/') ? next : '/client/dashboard');
    await new Promise(() => {});
  }

  return (
    <SignInForm
      schema={clientLoginSchema}
      usernameLabel="Username"
      usernamePlaceholder="Enter your username"
      ariaLabel="Client sign-in"
      onSubmit={signIn}
    />
  );
}
