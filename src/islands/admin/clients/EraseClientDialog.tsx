// Erasing a client (issue 56): says what goes and what stays, and asks for the client's name
// typed again before the button does anything.
import { useEffect, useState } from 'react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import type { ClientRow, EraseSummary } from '../../../shared/schemas/clients.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';

export function EraseClientDialog({ client, onClose, onErased }: { client: ClientRow | null; onClose: () => void; onErased: () => void }) {
  const [typed, setTyped] = useState('');
  const [pending, setPending] = useState(false);
  useEffect(() => setTyped(''), [client?.id]);
  if (!client) return null;
  const matches = typed.trim() === client.name.trim();

  async function erase() {
    if (!client || !matches) return;
    setPending(true);
    try {
      const r = await apiJson<EraseSummary>('POST', `/api/clients/${client.id}/erase`, { confirmName: typed });
      toast({
        title: 'Client erased',
        description: `${client.name} is now “Former client”: ${r.logins} login${r.logins === 1 ? '' : 's'} removed, ${r.keptThreads} review thread${r.keptThreads === 1 ? '' : 's'} kept.`,
      });
      onErased();
    } catch (e) {
      toast({ title: 'Could not erase the client', description: errorMessage(e), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Erase ${client.name}`}
      size="md"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={erase} disabled={pending || !matches}>
            {pending ? 'Erasing...' : 'Erase client'}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm">
        <p>This removes everything personal about {client.name} and cannot be undone. Export their data first if they asked for a copy.</p>
        <ul className="list-disc space-y-1 pl-5">
          <li>Their logins, sessions, contact details and the emails sent to them go.</li>
          <li>Review threads the studio answered stay, under “Former client”; their other feedback and notes go.</li>
          <li>Files assigned to them stay in the library (they are the studio’s); the assignments end.</li>
        </ul>
        <Field label={`Type “${client.name}” to confirm`} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
      </div>
    </Dialog>
  );
}
