// Sign-in's second step (issue 56), shared by the staff and client sign-in: a code from the app,
// a recovery code or a passkey (staff), and "trust this browser for 30 days". Each factor kind
// the account has is offered.
import { useState, type FormEvent } from 'react';
import { ShieldCheck } from 'lucide-react';
import { ApiError, apiJson, errorMessage } from '../../shared/api.ts';
import { fieldErrors } from '../../shared/forms.ts';
import { toast } from '../../shared/toast.ts';
import { recoveryCode, totpCode, type FactorKind } from '../../shared/schemas/second-factor.ts';
import { Button } from '../ui/Button.tsx';
import { z } from '../../shared/zod.ts';
import { CodeField } from './CodeField.tsx';
import { answerWithPasskey } from './passkey-browser.ts';

const SCHEMAS = { totp: z.object({ code: totpCode }), recovery: z.object({ code: recoveryCode }) };

const SWITCH_LABEL: Record<FactorKind, string> = {
  totp: 'Use your authenticator app instead',
  recovery: 'Use a recovery code instead',
  passkey: 'Use a passkey instead',
};

/**
 * `verifyPath`: the second step's endpoint; `onSignedIn` receives its answer (and navigates);
 * `onStartOver` goes back to the password (also when the pending sign-in has expired).
 */
export function SecondStep<T>({
  verifyPath,
  factors,
  onSignedIn,
  onStartOver,
}: {
  verifyPath: string;
  factors: FactorKind[];
  onSignedIn: (answer: T) => Promise<void>;
  onStartOver: () => void;
}) {
  const [factor, setFactor] = useState<FactorKind>(factors[0] ?? 'totp');
  const [code, setCode] = useState('');
  const [trust, setTrust] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  function switchTo(next: FactorKind) {
    setFactor(next);
    setCode('');
    setError(undefined);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (factor === 'passkey') return verify(async () => ({ factor, response: await answerWithPasskey(`${verifyPath}/passkey-options`), trustBrowser: trust }));
    const { data, errors } = fieldErrors(SCHEMAS[factor], { code });
    setError(errors.code);
    if (!data) return;
    await verify(async () => ({ factor, code: data.code, trustBrowser: trust }));
  }

  async function verify(proof: () => Promise<object>) {
    setPending(true);
    try {
      const answer = await apiJson<T>('POST', verifyPath, await proof());
      await onSignedIn(answer);
    } catch (err) {
      // The pending sign-in is gone (ten minutes passed, or it was finished elsewhere): the password again.
      if (err instanceof ApiError && err.status === 401 && /sign-in has expired/i.test(err.serverMessage)) {
        toast({ title: 'Sign-in expired', description: err.serverMessage, variant: 'destructive' });
        onStartOver();
        return;
      }
      setError(errorMessage(err));
      setCode('');
    } finally {
      setPending(false);
    }
  }

  const others = factors.filter((f) => f !== factor);
  const explanation = {
    totp: 'Your password was right. Enter the 6-digit code your authenticator app shows for this account.',
    recovery: 'Enter one of the recovery codes you saved when you set up your second factor. Each works once.',
    passkey: 'Your password was right. Use your passkey (your device asks for its PIN, fingerprint or face) to finish signing in.',
  }[factor];
  return (
    <form method="post" onSubmit={submit} noValidate className="space-y-5" aria-label="Two-step verification">
      <div className="flex items-start gap-3 rounded-lg border border-line bg-muted/50 p-3 text-sm">
        <ShieldCheck size={20} aria-hidden="true" className="mt-0.5 shrink-0 text-accent" />
        <p>{explanation}</p>
      </div>
      {factor === 'passkey' ? (
        error && (
          <p className="text-sm text-danger" role="alert">
            {error}
          </p>
        )
      ) : (
        <CodeField
          key={factor}
          value={code}
          onChange={setCode}
          error={error}
          label={factor === 'totp' ? 'Authentication code' : 'Recovery code'}
          recovery={factor === 'recovery'}
          autoFocus
        />
      )}
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="trustBrowser" className="h-4 w-4 accent-[var(--accent)]" checked={trust} onChange={(e) => setTrust(e.target.checked)} />
        Trust this browser for 30 days
      </label>
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {factor === 'passkey' ? (pending ? 'Waiting for your passkey…' : 'Use your passkey') : pending ? 'Verifying…' : 'Verify'}
      </Button>
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <span className="flex flex-col items-start gap-1">
          {others.map((other) => (
            <button key={other} type="button" className="text-accent underline-offset-4 hover:underline" onClick={() => switchTo(other)}>
              {SWITCH_LABEL[other]}
            </button>
          ))}
        </span>
        <button type="button" className="text-fg-muted underline-offset-4 hover:text-fg hover:underline" onClick={onStartOver}>
          Start over
        </button>
      </div>
    </form>
  );
}
