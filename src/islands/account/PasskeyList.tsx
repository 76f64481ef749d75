// The Security page's passkeys (issue 56, staff): add one (named), rename, remove with proof of
// a factor. The first factor of an account answers ten recovery codes, shown once by the panel.
import { useState, type FormEvent } from 'react';
import { Fingerprint, Pencil, Trash2 } from 'lucide-react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { fieldErrors } from '../../shared/forms.ts';
import { formatDate } from '../../shared/format.ts';
import { toast } from '../../shared/toast.ts';
import { z } from '../../shared/zod.ts';
import { passkeyName, type PasskeyAdded, type PasskeyInfo } from '../../shared/schemas/second-factor.ts';
import { Badge } from '../ui/Badge.tsx';
import { Button } from '../ui/Button.tsx';
import { Field } from '../ui/Field.tsx';
import { ProveFactorDialog } from './ProveFactorDialog.tsx';
import { makePasskey, passkeysSupported } from './passkey-browser.ts';

const nameSchema = z.object({ name: passkeyName });

export function PasskeyList({
  base,
  passkeys,
  hasOtherFactor,
  onChanged,
  onRecoveryCodes,
}: {
  base: string;
  passkeys: PasskeyInfo[];
  /** An authenticator app is set up too (removing the last passkey leaves a factor). */
  hasOtherFactor: boolean;
  onChanged: () => Promise<void>;
  onRecoveryCodes: (codes: string[]) => void;
}) {
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<{ id: number; name: string; error?: string } | null>(null);
  const [removing, setRemoving] = useState<PasskeyInfo | null>(null);
  const supported = passkeysSupported();

  async function add(e: FormEvent) {
    e.preventDefault();
    const { data, errors } = fieldErrors(nameSchema, { name });
    setNameError(errors.name);
    if (!data) return;
    setAdding(true);
    try {
      const response = await makePasskey(`${base}/passkeys/options`);
      const added = await apiJson<PasskeyAdded>('POST', `${base}/passkeys`, { name: data.name, response });
      toast({ title: 'Passkey added', description: `“${added.passkey.name}” can sign you in now.` });
      setName('');
      if (added.recoveryCodes) onRecoveryCodes(added.recoveryCodes);
      else await onChanged();
    } catch (err) {
      setNameError(errorMessage(err));
    } finally {
      setAdding(false);
    }
  }

  async function rename(e: FormEvent) {
    e.preventDefault();
    if (!renaming) return;
    const { data, errors } = fieldErrors(nameSchema, { name: renaming.name });
    if (!data) return setRenaming({ ...renaming, error: errors.name });
    try {
      await apiJson('PATCH', `${base}/passkeys/${renaming.id}`, { name: data.name });
      toast({ title: 'Passkey renamed' });
      setRenaming(null);
      await onChanged();
    } catch (err) {
      setRenaming({ ...renaming, error: errorMessage(err) });
    }
  }

  return (
    <section aria-labelledby="passkeys-heading" className="space-y-3 border-t border-line pt-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="passkeys-heading" className="flex items-center gap-2 font-semibold">
          <Fingerprint size={18} aria-hidden="true" className="text-accent" />
          Passkeys
        </h3>
        {passkeys.length > 0 ? <Badge tone="success">{passkeys.length} set up</Badge> : <Badge tone="outline">None</Badge>}
      </div>
      <p className="text-sm text-fg-muted">
        A passkey lives on your laptop, phone or security key and is unlocked with its PIN, fingerprint or face. It can stand in for the code after your password, or sign you in
        alone with “Continue with a passkey” on the sign-in page.
      </p>
      {passkeys.length > 0 && (
        <ul className="divide-y divide-line rounded-lg border border-line" data-testid="passkey-list">
          {passkeys.map((k) => (
            <li key={k.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
              {renaming?.id === k.id ? (
                <form onSubmit={rename} noValidate className="flex w-full flex-wrap items-end gap-2">
                  <div className="min-w-48 flex-1">
                  <Field
                    label={`New name for ${k.name}`}
                    name="passkeyName"
                    value={renaming.name}
                    onChange={(e) => setRenaming({ ...renaming, name: e.target.value, error: undefined })}
                    error={renaming.error}
                    maxLength={60}
                    autoFocus
                  />
                  </div>
                  <Button type="submit" size="sm">
                    Save
                  </Button>
                  <Button variant="outline" size="sm" onClick={() => setRenaming(null)}>
                    Cancel
                  </Button>
                </form>
              ) : (
                <>
                  <div className="min-w-0">
                    <p className="truncate font-medium">
                      {k.name} {k.backedUp && <Badge tone="outline">Synced</Badge>}
                    </p>
                    <p className="text-xs text-fg-muted">
                      Added {formatDate(k.createdAt)}
                      {k.lastUsedAt ? `, last used ${formatDate(k.lastUsedAt)}` : ', not used yet'}
                    </p>
                  </div>
                  <div className="flex gap-1">
                    <Button variant="ghost" size="sm" aria-label={`Rename ${k.name}`} onClick={() => setRenaming({ id: k.id, name: k.name })}>
                      <Pencil size={14} aria-hidden="true" />
                    </Button>
                    <Button variant="ghost" size="sm" className="text-danger" aria-label={`Remove ${k.name}`} onClick={() => setRemoving(k)}>
                      <Trash2 size={14} aria-hidden="true" />
                    </Button>
                  </div>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {supported ? (
        <form onSubmit={add} noValidate className="flex flex-wrap items-end gap-2" aria-label="Add a passkey">
          <div className="min-w-48 flex-1">
          <Field
            label="Name for a new passkey"
            name="newPasskeyName"
            placeholder="e.g. Work laptop"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setNameError(undefined);
            }}
            error={nameError}
            maxLength={60}
          />
          </div>
          <Button type="submit" disabled={adding}>
            {adding ? 'Waiting for your passkey…' : 'Add a passkey'}
          </Button>
        </form>
      ) : (
        <p className="text-sm text-fg-muted">This browser cannot make passkeys. Open this page in a current browser to add one.</p>
      )}
      <ProveFactorDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? 'passkey'}`}
        description={
          hasOtherFactor || passkeys.length > 1
            ? 'It stops signing you in. Confirm with a code or one of your passkeys.'
            : 'It is your only second factor: signing in will ask for your password alone and your recovery codes stop working.'
        }
        confirmLabel="Remove"
        danger
        passkeyChallengePath={`${base}/passkeys/challenge`}
        onClose={() => setRemoving(null)}
        onProve={async (proof) => {
          await apiJson('DELETE', `${base}/passkeys/${removing!.id}`, proof);
          toast({ title: 'Passkey removed', description: `“${removing!.name}” no longer signs you in.` });
          await onChanged();
        }}
      />
    </section>
  );
}
