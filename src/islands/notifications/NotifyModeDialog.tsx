import { useEffect, useId, useState } from 'react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { NOTIFY_MODES, NOTIFY_MODE_LABELS, type NotifyMode, type NotifyModeAnswer } from '../../shared/schemas/notifications.ts';
import { Button } from '../ui/Button.tsx';
import { Dialog } from '../ui/Dialog.tsx';

export const STAFF_NOTIFY_ABOUT =
  'Emails when a client or a share-link visitor leaves feedback, a timeline note or an approval decision. The bell shows these whatever you choose here.';

/**
 * Choosing how email notifications arrive (issue 17), for staff (their own account) and
 * client logins alike: native radio buttons, so arrows and Space work without extra code.
 */
export function NotifyModeDialog({
  open,
  onClose,
  endpoint,
  about,
}: {
  open: boolean;
  onClose: () => void;
  endpoint: '/api/user/notifications' | '/api/client/notifications';
  /** One sentence saying which events the emails are about. */
  about: string;
}) {
  const [saved, setSaved] = useState<NotifyMode | null>(null);
  const [mode, setMode] = useState<NotifyMode | null>(null);
  const [address, setAddress] = useState<string | null>(null);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const name = useId();

  useEffect(() => {
    if (!open) return;
    setStatus(null);
    apiJson<NotifyModeAnswer>('GET', endpoint)
      .then((r) => (setSaved(r.mode), setMode(r.mode), setAddress(r.address)))
      .catch((e) => setStatus({ text: errorMessage(e, 'Could not load your notification setting'), error: true }));
  }, [open, endpoint]);

  const save = async () => {
    if (!mode) return;
    setBusy(true);
    try {
      const r = await apiJson<NotifyModeAnswer>('PUT', endpoint, { mode });
      setSaved(r.mode);
      setAddress(r.address);
      setStatus({ text: `Saved: ${NOTIFY_MODE_LABELS[r.mode].toLowerCase()}.`, error: false });
    } catch (e) {
      setStatus({ text: errorMessage(e, 'Could not save your notification setting'), error: true });
    } finally {
      setBusy(false);
    }
  };

  const hints: Record<NotifyMode, string> = {
    immediately: 'An email for each event, within a minute.',
    digest: 'One email a day listing everything since the last one.',
    off: 'No emails.',
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Email notifications"
      description={about}
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
          <Button onClick={save} disabled={busy || !mode || mode === saved}>
            {busy ? 'Saving...' : 'Save'}
          </Button>
        </>
      }
    >
      {address !== null && (
        <p className="mb-3 text-sm" data-testid="notify-address">
          Emails go to <strong className="break-all font-medium">{address || 'no address on this account'}</strong>
        </p>
      )}
      <fieldset className="space-y-2" disabled={mode === null}>
        <legend className="mb-2 text-sm font-medium">Send me emails</legend>
        {NOTIFY_MODES.map((m) => (
          <label key={m} className="flex cursor-pointer items-start gap-3 rounded-md border border-line p-3 has-[:checked]:border-accent has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent">
            <input type="radio" name={name} value={m} checked={mode === m} onChange={() => (setMode(m), setStatus(null))} className="mt-1 accent-accent" />
            <span>
              <span className="block text-sm font-medium">{NOTIFY_MODE_LABELS[m]}</span>
              <span className="block text-xs text-fg-muted">{hints[m]}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <p role="status" aria-live="polite" className={`mt-3 min-h-5 text-sm ${status?.error ? 'text-danger' : 'text-fg-muted'}`}>
        {status?.text ?? (mode === null ? 'Loading...' : '')}
      </p>
    </Dialog>
  );
}
