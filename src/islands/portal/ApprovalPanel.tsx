import { useState } from 'react';
import { CheckCircle2, MessageSquareWarning } from 'lucide-react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { formatDateTime } from '../../shared/format.ts';
import type { MediaVersion } from '../../shared/schemas/review.ts';
import { toast } from '../../shared/toast.ts';
import { Button } from '../ui/Button.tsx';
import { Textarea } from '../ui/Textarea.tsx';
import { ApprovalBadge } from '../review/ApprovalBadge.tsx';

/**
 * The client's decision on the version shown (issue 16): Approve, or Request changes with a
 * note. Only the current version can be decided on, and not once the studio has locked it.
 */
export function ApprovalPanel({ mediaId, version, onDecided }: { mediaId: number; version: MediaVersion; onDecided: (v: MediaVersion) => void }) {
  const [asking, setAsking] = useState(false);
  const [note, setNote] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const a = version.approval;
  const decide = async (status: 'approved' | 'changes_requested') => {
    if (status === 'changes_requested' && !note.trim()) return setError('Please say what should change.');
    setPending(true);
    setError(null);
    try {
      const next = await apiJson<MediaVersion>('PUT', `/api/client/media/${mediaId}/approval`, { status, note: status === 'changes_requested' ? note : '', version: version.number });
      toast({ title: status === 'approved' ? `v${version.number} approved` : 'Changes requested', description: 'The studio has been told.' });
      setAsking(false);
      setNote('');
      onDecided(next);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setPending(false);
    }
  };
  return (
    <section aria-label="Your approval" className="space-y-3 rounded-lg border border-line p-3" data-testid="client-approval">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-medium">{`v${version.number}`}</span>
        <ApprovalBadge status={a.status} locked={a.locked} />
        {a.by && a.at && <span className="text-xs text-fg-muted">{`${a.by} · ${formatDateTime(a.at)}`}</span>}
      </div>
      {a.note && <p className="whitespace-pre-line text-sm">{a.note}</p>}
      {!version.current ? (
        <p className="text-sm text-fg-muted">An earlier version: decisions are made on the current one.</p>
      ) : a.locked ? (
        <p className="text-sm text-fg-muted">The studio has locked this decision.</p>
      ) : asking ? (
        <div className="space-y-2">
          <Textarea label="What should change?" rows={3} value={note} maxLength={5000} onChange={(e) => setNote(e.target.value)} />
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={() => decide('changes_requested')} disabled={pending}>
              Send request
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setAsking(false)} disabled={pending}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={() => decide('approved')} disabled={pending || a.status === 'approved'}>
            <CheckCircle2 size={14} aria-hidden="true" /> Approve
          </Button>
          <Button size="sm" variant="outline" onClick={() => setAsking(true)} disabled={pending}>
            <MessageSquareWarning size={14} aria-hidden="true" /> Request changes
          </Button>
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
    </section>
  );
}
