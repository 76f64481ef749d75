import { apiJson, errorMessage } from '../shared/api.ts';
import { withRetries } from '../shared/forms.ts';
import { landingFor, safeReturnPath } from '../shared/landing.ts';
import { staffLoginSchema } from '../shared/schemas/auth.ts';
import { toast, toastAfterNavigation } from '../shared/toast.ts';
import { SignInForm } from './ui/SignInForm.tsx';

/** Staff sign-in (000 §2, §5, §8): after sign-in, the roles and permissions decide the landing page. */
export default function StaffLogin() {
  async function signIn(credentials: { username: string; password: string }) {
    let user: { username: string };
    try {
      user = await apiJson<{ username: string }>('POST', '/api/login', credentials);
    } catch (err) {
      toast({ title: 'Login failed', description: errorMessage(err), variant: 'destructive' });
      return;
    }
    toastAfterNavigation({ title: 'Login successful', description: `Welcome back, ${user.username}!` });
    // Back to the screen whose session expired ("Sign in again"), when the path is same-site.
    const next = safeReturnPath(new URLSearchParams(window.location.search).get('next'));
    if (next) {
      window.location.assign(next);
      await new Promise(() => {});
    }
    let target = '/';
    try {
      const names = (path: string) => withRetries(() => apiJson<{ name: string }[]>('GET', path), 3, 1000).then((rows) => rows.map((r) => r.name));
      const [roles, permissions] = await Promise.all([names('/api/user/roles'), names('/api/user/permissions')]);
      target = landingFor(roles, permissions);
    } catch (err) {
      console.error('Could not load roles', err);
    }
    window.location.assign(target);
    // Keep the button in its pending state while the browser navigates.
    await new Promise(() => {});
  }

  return (
    <SignInForm
      schema={staffLoginSchema}
      usernameLabel="Username or Email"
      usernamePlaceholder="Enter your username or email"
      ariaLabel="Staff sign-in"
      onSubmit={signIn}
    />
  );
}
