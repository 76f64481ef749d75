// The gallery viewer's small dialogs (issue 42): the download PIN, a guest's name (and address
// for the expiry reminder), sending a list, and the keys of the full-screen view.
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../shared/api.ts';
import { toast } from '../../shared/toast.ts';
import type { ViewerList } from '../../shared/schemas/proofing.ts';
import { Button } from '../ui/Button.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';

export function PinDialog({ open, onClose, onPin }: { open: boolean; onClose: () => void; onPin: (pin: string) => Promise<void> }) {
  const [pin, setPin] = useState('');
  const [error, setError] = useState('');
  const [pending, setPending] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!/^\d{4}$/.test(pin)) return setError('The PIN is four digits.');
    setPending(true);
    try {
      await onPin(pin);
      setPin('');
      setError('');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setPending(false);
    }
  }
  return (
    <Dialog open={open} onClose={onClose} title="Download PIN" description="Looking is free; downloads ask for the four-digit PIN the studio gave you." size="sm">
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="PIN" inputMode="numeric" autoComplete="one-time-code" maxLength={4} pattern="\d{4}" value={pin} onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))} error={error || undefined} autoFocus />
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            Unlock downloads
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function NameDialog({ open, onClose, onSave }: { open: boolean; onClose: () => void; onSave: (name: string, email: string) => Promise<void> }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ field: string; text: string } | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setError({ field: 'name', text: 'Please enter your name.' });
    setPending(true);
    try {
      await onSave(name.trim(), email.trim());
      setError(null);
    } catch (err) {
      setError({ field: /email/i.test(errorMessage(err)) ? 'email' : 'name', text: errorMessage(err) });
    } finally {
      setPending(false);
    }
  }
  return (
    <Dialog open={open} onClose={onClose} title="Your name" description="So the studio knows whose hearts, picks and notes these are." size="sm">
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Name" autoComplete="name" maxLength={80} value={name} onChange={(e) => setName(e.target.value)} error={error?.field === 'name' ? error.text : undefined} autoFocus />
        <Field
          label="Email (optional)"
          type="email"
          autoComplete="email"
          maxLength={254}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          hint="Only for one reminder before the gallery closes."
          error={error?.field === 'email' ? error.text : undefined}
        />
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            Continue
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function SubmitDialog({ list, onClose, onSubmit }: { list: ViewerList | null; onClose: () => void; onSubmit: () => Promise<boolean> }) {
  const [pending, setPending] = useState(false);
  const short = list ? Math.max(0, list.minCount - list.count) : 0;
  return (
    <Dialog
      open={!!list}
      onClose={onClose}
      title={list ? `Send “${list.name}”?` : 'Send'}
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Keep picking
          </Button>
          <Button
            disabled={pending || short > 0 || !list?.count}
            onClick={async () => {
              setPending(true);
              if (await onSubmit()) onClose();
              setPending(false);
            }}
          >
            Send to the studio
          </Button>
        </>
      }
    >
      {list && (
        <div className="space-y-2 text-sm">
          <p>
            You picked <strong>{list.count}</strong>
            {list.maxCount != null ? ` of ${list.maxCount}` : ''}. Once sent, the list is locked: the studio can reopen it if you need to change it.
          </p>
          {short > 0 && <p className="text-danger">Pick {short} more first: this list needs at least {list.minCount}.</p>}
          {!list.count && <p className="text-danger">Pick at least one image first.</p>}
        </div>
      )}
    </Dialog>
  );
}

export const VIEWER_KEYS: [string, string][] = [
  ['← →', 'Previous and next image'],
  ['F', 'Heart or un-heart'],
  ['P', 'Pick into the list shown in the bar, or take it out'],
  ['1 – 5', 'Stars (0 clears them)'],
  ['N', 'Notes on this image'],
  ['Esc', 'Close'],
  ['?', 'This list'],
];

export function KeysDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Keyboard shortcuts" size="sm">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {VIEWER_KEYS.map(([k, what]) => (
          <div key={k} className="contents">
            <dt>
              <kbd className="rounded border border-line bg-muted px-1.5 py-0.5 font-mono text-xs">{k}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}

/** A toast for an action that waits on the PIN or a name, so nothing happens silently. */
export const tellWhy = (title: string, description: string) => toast({ title, description });
