// The status board of an item's review round (issue 57 item 2), for staff in the detail dialog
// and for clients in the portal: each stage in order with its rule, due date (overdue in red),
// and each reviewer's decision and when, or whether they have opened the version yet; and, for a
// reviewer of the open stage, the three decisions.
import { useState } from 'react';
import { BellRing, CheckCircle2, Circle, CircleDot, Clock, Eye, EyeOff, MessageSquareWarning } from 'lucide-react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { formatDateTime } from '../../shared/format.ts';
import { toast } from '../../shared/toast.ts';
import { DECISION_LABELS, ROUND_STATUS_LABELS, STAGE_RULE_LABELS, type BoardStage, type Decision, type RoundBoard as Board } from '../../shared/schemas/rounds.ts';
import { Badge } from '../ui/Badge.tsx';
import { Button } from '../ui/Button.tsx';
import { Textarea } from '../ui/Textarea.tsx';

const STATUS_TONE = { in_review: 'default', changes_requested: 'warning', approved: 'success', cancelled: 'outline' } as const;
const DECISION_TONE: Record<Decision, 'success' | 'accent' | 'warning'> = { approve: 'success', approve_with_changes: 'accent', request_changes: 'warning' };

function StageIcon({ stage }: { stage: BoardStage }) {
  if (stage.status === 'closed') return <CheckCircle2 size={16} aria-hidden="true" className="text-emerald-700 dark:text-emerald-400" />;
  if (stage.status === 'open') return <CircleDot size={16} aria-hidden="true" className="text-accent" />;
  return <Circle size={16} aria-hidden="true" className="text-fg-muted" />;
}

const stageState = (s: BoardStage) => (s.status === 'closed' ? `Closed${s.closedOnVersion ? ` on v${s.closedOnVersion}` : ''}` : s.status === 'open' ? 'Open' : 'Waiting');

/** The board; `decideUrl` given when the viewer may decide (staff or client endpoint). */
export function RoundBoard({ round, decideUrl, onChanged, onRemind }: { round: Board; decideUrl: string | null; onChanged: (next: Board) => void; onRemind?: (reviewerId: number, name: string) => void }) {
  const [asking, setAsking] = useState<Decision | null>(null);
  const [note, setNote] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const open = round.stages.find((s) => s.status === 'open');

  const decide = async (decision: Decision) => {
    if (decision !== 'approve' && !note.trim()) return setError('Please say what should change.');
    setPending(true);
    setError(null);
    try {
      const next = await apiJson<{ round: Board }>('POST', decideUrl!, { decision, note: decision === 'approve' ? '' : note, version: round.currentVersion });
      toast({ title: DECISION_LABELS[decision], description: next.round.status === 'approved' ? 'The round is complete: this version is approved.' : 'Your decision is recorded.' });
      setAsking(null);
      setNote('');
      onChanged(next.round);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setPending(false);
    }
  };

  return (
    <section aria-labelledby="round-heading" className="space-y-3 rounded-lg border border-line p-3" data-testid="round-board">
      <h3 id="round-heading" className="flex flex-wrap items-center justify-between gap-2 text-sm font-semibold">
        <span>{round.name}</span>
        <span className="flex items-center gap-2 text-xs font-normal text-fg-muted">
          <Badge tone={STATUS_TONE[round.status]}>{ROUND_STATUS_LABELS[round.status]}</Badge>
          {`v${round.currentVersion}`}
          {round.notes && (
            <span data-testid="round-notes">{` · ${round.notes.total} ${round.notes.total === 1 ? 'note' : 'notes'}${round.notes.tasks ? `, ${round.notes.tasksDone} of ${round.notes.tasks} tasks done` : ''}`}</span>
          )}
        </span>
      </h3>
      <ol className="space-y-2">
        {round.stages.map((s) => (
          <li key={s.id} className={`rounded-md border p-2 ${s.status === 'open' ? 'border-accent' : 'border-line'}`} data-testid="round-stage" aria-label={`Stage ${s.position}: ${s.name}, ${stageState(s)}`}>
            <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span className="flex items-center gap-2 font-medium">
                <StageIcon stage={s} />
                {`${s.position}. ${s.name}`}
                <span className="text-xs font-normal text-fg-muted">{`${stageState(s)} · ${STAGE_RULE_LABELS[s.rule]}`}</span>
              </span>
              {s.dueAt && (
                <span className={`flex items-center gap-1 text-xs ${s.overdue ? 'font-medium text-danger' : 'text-fg-muted'}`}>
                  <Clock size={12} aria-hidden="true" />
                  {`${s.overdue ? 'Overdue: was due' : 'Due'} ${formatDateTime(s.dueAt)}`}
                </span>
              )}
            </div>
            <ul className="mt-1 space-y-1">
              {s.reviewers.map((r) => (
                <li key={r.id} className="flex flex-wrap items-center gap-2 text-sm" data-testid="round-reviewer">
                  <span className={r.isMe ? 'font-medium' : ''}>{r.isMe ? `${r.name} (you)` : r.name}</span>
                  {r.isApprover && <Badge tone="outline">Approver</Badge>}
                  {r.decision ? (
                    <>
                      <Badge tone={DECISION_TONE[r.decision.decision]}>{DECISION_LABELS[r.decision.decision]}</Badge>
                      <span className="text-xs text-fg-muted">{formatDateTime(r.decision.at)}</span>
                      {r.decision.note && <span className="w-full whitespace-pre-line pl-1 text-xs">{r.decision.note}</span>}
                    </>
                  ) : s.status === 'open' ? (
                    <>
                      <span className="flex items-center gap-1 text-xs text-fg-muted">
                        {r.openedAt ? <Eye size={12} aria-hidden="true" /> : <EyeOff size={12} aria-hidden="true" />}
                        {r.openedAt ? `Opened ${formatDateTime(r.openedAt)}, not decided` : 'Not opened yet'}
                      </span>
                      {onRemind && !r.isMe && round.status !== 'cancelled' && (
                        <Button variant="ghost" size="sm" onClick={() => onRemind(r.id, r.name)} aria-label={`Remind ${r.name}`}>
                          <BellRing size={12} aria-hidden="true" /> Remind
                        </Button>
                      )}
                    </>
                  ) : null}
                </li>
              ))}
            </ul>
            {s.earlierDecisions > 0 && s.status === 'open' && (
              <p className="mt-1 text-xs text-fg-muted">{`A new version reset this stage: ${s.earlierDecisions} earlier ${s.earlierDecisions === 1 ? 'decision is' : 'decisions are'} kept as history.`}</p>
            )}
          </li>
        ))}
      </ol>
      {round.canDecide && decideUrl && open && (
        <div className="space-y-2 border-t border-line pt-3" data-testid="round-decide">
          <p className="text-sm">{`Your decision for “${open.name}” on v${round.currentVersion}:`}</p>
          {asking ? (
            <div className="space-y-2">
              <Textarea label={asking === 'request_changes' ? 'What should change?' : 'What should still change?'} rows={3} value={note} maxLength={4000} onChange={(e) => setNote(e.target.value)} />
              <div className="flex flex-wrap gap-2">
                <Button size="sm" onClick={() => decide(asking)} disabled={pending}>
                  {asking === 'request_changes' ? 'Send request' : 'Approve with these changes'}
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setAsking(null)} disabled={pending}>
                  Cancel
                </Button>
              </div>
            </div>
          ) : (
            <div className="flex flex-wrap gap-2">
              <Button size="sm" onClick={() => decide('approve')} disabled={pending}>
                <CheckCircle2 size={14} aria-hidden="true" /> Approve
              </Button>
              <Button size="sm" variant="outline" onClick={() => setAsking('approve_with_changes')} disabled={pending}>
                Approve with changes
              </Button>
              <Button size="sm" variant="outline" onClick={() => setAsking('request_changes')} disabled={pending}>
                <MessageSquareWarning size={14} aria-hidden="true" /> Request changes
              </Button>
            </div>
          )}
          {error && (
            <p role="alert" className="text-sm text-danger">
              {error}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
