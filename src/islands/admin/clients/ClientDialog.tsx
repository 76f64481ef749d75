// The one dialog for 'Add New Client' and 'Edit Client' (001 §2, §4, §5).
import { useEffect, useState, type FormEvent } from 'react';
import { ShieldCheck } from 'lucide-react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import { fieldErrors } from '../../../shared/forms.ts';
import { clientDetailsSchema, createClientSchema, resetClientPasswordSchema, type ClientRow } from '../../../shared/schemas/clients.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field, PasswordField } from '../../ui/Field.tsx';
import { PASSWORD_HINT } from '../../../shared/passwords.ts';
import { Textarea } from '../../ui/Textarea.tsx';

const EMPTY = { name: '', email: '', phone: '', company: '', notes: '', username: '', password: '' };
type Values = typeof EMPTY;

export type ClientSubmit =
  | { kind: 'create'; data: Values }
  | { kind: 'update'; id: number; data: Omit<Values, 'username' | 'password'> }
  | { kind: 'reset'; id: number; password: string };

export function ClientDialog({
  open,
  client,
  onClose,
  onSubmit,
  onFactorReset,
}: {
  open: boolean;
  /** null while adding. */
  client: ClientRow | null;
  onClose: () => void;
  onSubmit: (action: ClientSubmit) => Promise<boolean>;
  /** After the login's authenticator app was reset (issue 56). */
  onFactorReset?: () => void;
}) {
  const [values, setValues] = useState<Values>(EMPTY);
  const [resetting, setResetting] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (!open) return;
    setValues(client ? { ...EMPTY, name: client.name, email: client.email, phone: client.phone, company: client.company, notes: client.notes } : EMPTY);
    setResetting(false);
    setErrors({});
  }, [open, client]);

  const set = (key: keyof Values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    let action: ClientSubmit | undefined;
    if (!client) {
      const r = fieldErrors(createClientSchema, values);
      setErrors(r.errors);
      if (r.data) action = { kind: 'create', data: r.data };
    } else if (resetting) {
      // Ticking 'Reset client password' makes the submit reset the password only.
      const r = fieldErrors(resetClientPasswordSchema, { password: values.password });
      setErrors(r.errors);
      if (r.data) action = { kind: 'reset', id: client.id, password: r.data.password };
    } else {
      const r = fieldErrors(clientDetailsSchema, values);
      setErrors(r.errors);
      if (r.data) action = { kind: 'update', id: client.id, data: r.data };
    }
    if (!action) return;
    setPending(true);
    const ok = await onSubmit(action);
    setPending(false);
    if (ok) onClose();
  }

  const label = !client ? 'Create' : resetting ? 'Reset Password' : 'Update';

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={client ? 'Edit Client' : 'Add New Client'}
      description={client ? 'Update the client’s information.' : 'Create a client account with portal login credentials.'}
      size="lg"
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Name" name="name" value={values.name} onChange={set('name')} error={errors.name} disabled={resetting} />
          <Field label="Email" name="email" type="email" value={values.email} onChange={set('email')} error={errors.email} disabled={resetting} />
          <Field label="Phone" name="phone" type="tel" value={values.phone} onChange={set('phone')} error={errors.phone} disabled={resetting} />
          <Field label="Company" name="company" value={values.company} onChange={set('company')} error={errors.company} disabled={resetting} />
        </div>
        <Textarea label="Notes" name="notes" rows={3} value={values.notes} onChange={set('notes')} error={errors.notes} disabled={resetting} />
        {!client ? (
          <fieldset className="space-y-4 rounded-lg border border-line p-4">
            <legend className="px-1 text-sm font-medium">Login Credentials</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Username" name="username" autoComplete="off" value={values.username} onChange={set('username')} error={errors.username} />
              <PasswordField label="Password" name="password" autoComplete="new-password" hint={PASSWORD_HINT.client} value={values.password} onChange={set('password')} error={errors.password} />
            </div>
          </fieldset>
        ) : (
          <div className="space-y-4 rounded-lg border border-line p-4">
            <label className="flex items-center gap-2 text-sm font-medium">
              <input
                type="checkbox"
                className="h-4 w-4 accent-accent"
                checked={resetting}
                onChange={(e) => {
                  setResetting(e.target.checked);
                  setValues((v) => ({ ...v, password: '' }));
                  setErrors({});
                }}
              />
              Reset client password
            </label>
            {client.username && <p className="text-xs text-fg-muted">Portal login: {client.username}</p>}
            {client.secondFactor && <FactorReset client={client} onDone={() => onFactorReset?.()} />}
            {resetting && (
              <PasswordField label="New Password" name="password" autoComplete="new-password" hint={PASSWORD_HINT.client} value={values.password} onChange={set('password')} error={errors.password} />
            )}
          </div>
        )}
        <div className="flex flex-wrap justify-end gap-2 pt-2">
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {pending ? 'Saving...' : label}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** The portal login turned on an authenticator app (issue 56); staff reset it when the client lost their phone and codes. */
function FactorReset({ client, onDone }: { client: ClientRow; onDone: () => void }) {
  const [state, setState] = useState<'idle' | 'confirm' | 'pending' | 'done'>('idle');
  async function reset() {
    setState('pending');
    try {
      await apiJson('DELETE', `/api/clients/${client.id}/second-factor`);
      toast({ title: 'Authenticator app reset', description: `${client.name} was signed out and signs in next with the password alone.` });
      setState('done');
      onDone();
    } catch (e) {
      toast({ title: 'Failed to reset the authenticator app', description: errorMessage(e), variant: 'destructive' });
      setState('idle');
    }
  }
  if (state === 'done') return <p className="text-xs text-fg-muted">Authenticator app reset.</p>;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 border-t border-line pt-3 text-sm">
      <span className="flex items-center gap-1.5">
        <ShieldCheck size={16} aria-hidden="true" className="text-accent" /> Signs in with an authenticator app
      </span>
      {state === 'idle' ? (
        <Button variant="outline" size="sm" onClick={() => setState('confirm')}>
          Reset app
        </Button>
      ) : (
        <span className="flex gap-2">
          <Button variant="ghost" size="sm" onClick={() => setState('idle')} disabled={state === 'pending'}>
            Keep
          </Button>
          <Button variant="destructive" size="sm" onClick={() => void reset()} disabled={state === 'pending'}>
            {state === 'pending' ? 'Resetting...' : 'Reset and sign out'}
          </Button>
        </span>
      )}
    </div>
  );
}
