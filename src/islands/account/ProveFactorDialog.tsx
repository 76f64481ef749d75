// Asks for a code from the app or a recovery code before a change to the account's own factors
// (issue 56): a signed-in browser left open is not enough to remove them.
import { useEffect, useState, type FormEvent } from 'react';
import { errorMessage } from '../../shared/api.ts';
import { fieldErrors } from '../../shared/forms.ts';
import { proveFactorSchema } from '../../shared/schemas/second-factor.ts';
import { Button } from '../ui/Button.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';

export function ProveFactorDialog({
  open,
  title,
  description,
  confirmLabel,
  danger = false,
  onClose,
  onProve,
}: {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  danger?: boolean;
  onClose: () => void;
  /** Resolves when done (the dialog closes); throws to show the server's message. */
  onProve: (code: string) => Promise<void>;
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
    setPending(true);
    try {
      await onProve(data.code);
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
