// Asks for a code from the app or a recovery code (or, for staff with passkeys, a passkey) before
// a change to the account's own factors (issue 56): a signed-in browser left open is not enough.
import { useEffect, useState, type FormEvent } from 'react';
import { errorMessage } from '../../shared/api.ts';
import { fieldErrors } from '../../shared/forms.ts';
import { proveFactorSchema } from '../../shared/schemas/second-factor.ts';
import { Button } from '../ui/Button.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { answerWithPasskey } from './passkey-browser.ts';

export type FactorProof = { code: string } | { passkey: Awaited<ReturnType<typeof answerWithPasskey>> };

export function ProveFactorDialog({
  open,
  title,
  description,
  confirmLabel,
  danger = false,
  onClose,
  onProve,
  passkeyChallengePath,
}: {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  danger?: boolean;
  onClose: () => void;
  /** Resolves when done (the dialog closes); throws to show the server's message. */
  onProve: (proof: FactorProof) => Promise<void>;
  /** Where a challenge for the account's passkeys comes from, when it has any. */
  passkeyChallengePath?: string;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (open) {
      setCode('');
      setError(undefined);
    }
  }, [open]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const { data, errors } = fieldErrors(proveFactorSchema, { code });
    setError(errors.code);
    if (!data) return;
    await prove(async () => ({ code: data.code }));
  }

  async function prove(get: () => Promise<FactorProof>) {
    setPending(true);
    try {
      await onProve(await get());
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog open={open} onClose={onClose} title={title} description={description} size="sm">
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field
          label="Code from your app, or a recovery code"
          name="code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={error}
          autoFocus
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={24}
          className="font-mono tracking-widest"
        />
        <div className="flex flex-wrap justify-end gap-2">
          {passkeyChallengePath && (
            <Button variant="ghost" className="mr-auto" disabled={pending} onClick={() => void prove(async () => ({ passkey: await answerWithPasskey(passkeyChallengePath) }))}>
              Use a passkey
            </Button>
          )}
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant={danger ? 'destructive' : 'primary'} disabled={pending}>
            {pending ? 'Checking…' : confirmLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
