// The password form of a protected share link (issue 17).
import { useState, type FormEvent } from 'react';
import { Lock } from 'lucide-react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { Button } from '../ui/Button.tsx';
import { PasswordField } from '../ui/Field.tsx';

export default function ShareUnlock({ token, name, studio }: { token: string; name: string; studio: string }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!password) return setError('Enter the password');
    setPending(true);
    setError(null);
    try {
      await apiJson('POST', `/api/share/${token}/unlock`, { password });
      location.reload();
    } catch (err) {
      setError(errorMessage(err));
      setPending(false);
    }
  }

  return (
    <main className="flex min-h-dvh items-center justify-center px-6">
      <form onSubmit={onSubmit} noValidate className="w-full max-w-sm space-y-5 rounded-xl border border-line bg-raised p-8 shadow-sm">
        <div className="flex items-center gap-3">
          <Lock size={20} aria-hidden="true" className="text-fg-muted" />
          <div>
            <p className="text-xs uppercase tracking-wide text-fg-muted">{studio}</p>
            <h1 className="text-xl font-semibold">{name}</h1>
          </div>
        </div>
        <p className="text-sm text-fg-muted">This link is protected. Enter the password you were given.</p>
        <PasswordField label="Password" value={password} onChange={(e) => setPassword(e.target.value)} error={error ?? undefined} autoComplete="off" autoFocus />
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? 'Checking…' : 'Open'}
        </Button>
      </form>
    </main>
  );
}
