// Setting up an authenticator app (issue 56): scan the QR code (or type the secret), then enter
// the code it shows; answers the recovery codes. Leaving half way changes nothing.
import { useEffect, useState, type FormEvent } from 'react';
import { Copy, Smartphone } from 'lucide-react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { toast } from '../../shared/toast.ts';
import { fieldErrors } from '../../shared/forms.ts';
import { confirmTotpSchema, type TotpEnrolment } from '../../shared/schemas/second-factor.ts';
import { Button } from '../ui/Button.tsx';
import { Skeleton } from '../ui/Skeleton.tsx';
import { CodeField } from './CodeField.tsx';

/** The secret as apps show it: groups of four, easier to type. */
const groups = (secret: string) => secret.match(/.{1,4}/g)!.join(' ');

export function TotpSetup({ base, onDone, onCancel }: { base: string; onDone: (recoveryCodes: string[]) => void; onCancel?: () => void }) {
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  async function start() {
    setLoadError(null);
    setEnrolment(null);
    try {
      setEnrolment(await apiJson<TotpEnrolment>('POST', `${base}/totp`));
    } catch (e) {
      setLoadError(errorMessage(e));
    }
  }
  useEffect(() => {
    void start();
    // Once per mount: each start makes a new secret.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function confirm(e: FormEvent) {
    e.preventDefault();
    const { data, errors } = fieldErrors(confirmTotpSchema, { code });
    setError(errors.code);
    if (!data) return;
    setPending(true);
    try {
      const { recoveryCodes } = await apiJson<{ recoveryCodes: string[] }>('POST', `${base}/totp/confirm`, data);
      toast({ title: 'Authenticator app set up', description: 'Sign-in now asks for a code from it.' });
      onDone(recoveryCodes);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setPending(false);
    }
  }

  async function copySecret() {
    try {
      await navigator.clipboard.writeText(enrolment!.secret);
      toast({ title: 'Key copied', description: 'Paste it into your authenticator app.' });
    } catch {
      toast({ title: 'Could not copy', description: 'Select the key and copy it by hand.', variant: 'destructive' });
    }
  }

  if (loadError) {
    return (
      <div className="space-y-3" role="alert">
        <p className="text-sm text-danger">{loadError}</p>
        <Button variant="outline" onClick={() => void start()}>
          Try again
        </Button>
      </div>
    );
  }

  return (
    <form onSubmit={confirm} noValidate className="space-y-5" aria-label="Set up an authenticator app" aria-busy={!enrolment}>
      <ol className="space-y-5 text-sm">
        <li className="space-y-1">
          <p className="font-medium">1. Open your authenticator app</p>
          <p className="text-fg-muted">
            <Smartphone size={14} aria-hidden="true" className="mr-1 inline" />
            Any app that makes 6-digit codes works: Google Authenticator, Microsoft Authenticator, 1Password, Bitwarden, Authy…
          </p>
        </li>
        <li className="space-y-3">
          <p className="font-medium">2. Scan this QR code, or type the key</p>
          <div className="flex flex-wrap items-start gap-4">
            {enrolment ? (
              // Always dark modules on white, in either theme: that is what cameras read.
              <svg
                role="img"
                aria-label="QR code for your authenticator app"
                data-testid="totp-qr"
                viewBox={`-2 -2 ${enrolment.qr.size + 4} ${enrolment.qr.size + 4}`}
                className="h-44 w-44 shrink-0 rounded-md border border-line bg-white"
                shapeRendering="crispEdges"
              >
                <path d={enrolment.qr.path} fill="#000" />
              </svg>
            ) : (
              <Skeleton className="h-44 w-44 shrink-0" />
            )}
            <div className="min-w-0 flex-1 space-y-2">
              <p className="text-xs text-fg-muted">Can't scan? Choose "enter a setup key" in the app, time-based, and type:</p>
              {enrolment ? (
                <p className="break-all font-mono text-sm tracking-wide" data-testid="totp-secret">
                  {groups(enrolment.secret)}
                </p>
              ) : (
                <Skeleton className="h-5 w-full" />
              )}
              <Button variant="outline" size="sm" onClick={() => void copySecret()} disabled={!enrolment}>
                <Copy size={14} aria-hidden="true" /> Copy key
              </Button>
            </div>
          </div>
        </li>
        <li className="space-y-2">
          <p className="font-medium">3. Enter the code the app shows</p>
          <CodeField value={code} onChange={setCode} error={error} label="Code from the app" />
        </li>
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending || !enrolment}>
          {pending ? 'Checking…' : 'Turn on'}
        </Button>
        {onCancel && (
          <Button variant="ghost" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}

