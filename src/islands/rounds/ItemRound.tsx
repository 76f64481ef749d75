// The review round in the staff detail dialog (issue 57): the item's status board, "Start a review
// round" (edit:media) when none is in progress, and "Cancel round".
import { useCallback, useEffect, useState } from 'react';
import { ListOrdered } from 'lucide-react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { toast } from '../../shared/toast.ts';
import type { RoundBoard as Board } from '../../shared/schemas/rounds.ts';
import { Button } from '../ui/Button.tsx';
import { Skeleton } from '../ui/Skeleton.tsx';
import { RoundBoard } from './RoundBoard.tsx';
import { StartRoundDialog } from './StartRound.tsx';

export function ItemRound({ mediaId, versionCount, canEdit, onChanged }: { mediaId: number; versionCount: number; canEdit: boolean; onChanged: () => void }) {
  const [round, setRound] = useState<Board | null | undefined>(undefined);
  const [starting, setStarting] = useState(false);
  const load = useCallback(() => {
    apiJson<{ round: Board | null }>('GET', `/api/media/${mediaId}/round`).then(
      (r) => setRound(r.round),
      () => setRound(null),
    );
  }, [mediaId]);
  useEffect(load, [load, versionCount]);
  const inProgress = round && round.origin === 'staff' && (round.status === 'in_review' || round.status === 'changes_requested');
  const changed = (next: Board) => {
    setRound(next);
    onChanged();
  };
  const cancel = async () => {
    try {
      await apiJson('DELETE', `/api/media/${mediaId}/round`);
      toast({ title: 'Review round cancelled', description: 'It is kept in the item’s history.' });
      load();
      onChanged();
    } catch (e) {
      toast({ title: 'Could not cancel the round', description: errorMessage(e), variant: 'destructive' });
    }
  };
  const remind = async (reviewerId: number, name: string) => {
    try {
      await apiJson('POST', `/api/media/${mediaId}/round/remind`, { reviewerId });
      toast({ title: 'Reminder sent', description: `${name} has been reminded.` });
    } catch (e) {
      toast({ title: 'No reminder sent', description: errorMessage(e), variant: 'destructive' });
    }
  };
  if (round === undefined) return <Skeleton className="h-16 w-full" />;
  return (
    <div className="space-y-2" data-testid="item-round">
      {round && round.origin === 'staff' ? (
        <RoundBoard round={round} decideUrl={`/api/media/${mediaId}/round/decision`} onChanged={changed} onRemind={canEdit && inProgress ? remind : undefined} />
      ) : null}
      {canEdit && (
        <div className="flex flex-wrap items-center gap-2">
          {!inProgress ? (
            <Button variant="outline" size="sm" onClick={() => setStarting(true)}>
              <ListOrdered size={14} aria-hidden="true" /> Start a review round
            </Button>
          ) : (
            <Button variant="ghost" size="sm" onClick={cancel}>
              Cancel round
            </Button>
          )}
          {!round && <span className="text-xs text-fg-muted">Stages in order (e.g. Internal → Client → Legal), each with reviewers and a due date.</span>}
        </div>
      )}
      {starting && <StartRoundDialog mediaId={mediaId} open={starting} onClose={() => setStarting(false)} onStarted={changed} />}
    </div>
  );
}
