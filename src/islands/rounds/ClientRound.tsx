// The portal's side of a review round (issue 57): when the studio runs a round on the item, the
// client sees its board (the studio's people unnamed) and, as a reviewer of the open stage,
// decides there; otherwise the client approval of issue 16 (`children`) stays as it was.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { apiJson } from '../../shared/api.ts';
import type { RoundBoard as Board } from '../../shared/schemas/rounds.ts';
import { Skeleton } from '../ui/Skeleton.tsx';
import { RoundBoard } from './RoundBoard.tsx';

export function ClientRound({ mediaId, versionCount, onDecided, children }: { mediaId: number; versionCount: number; onDecided: () => void; children: ReactNode }) {
  const [round, setRound] = useState<Board | null | undefined>(undefined);
  const load = useCallback(() => {
    apiJson<{ round: Board | null }>('GET', `/api/client/media/${mediaId}/round`).then(
      (r) => setRound(r.round),
      () => setRound(null),
    );
  }, [mediaId]);
  useEffect(load, [load, versionCount]);
  if (round === undefined) return <Skeleton className="h-16 w-full" />;
  if (!round || round.origin !== 'staff' || round.status === 'cancelled') return <>{children}</>;
  return (
    <RoundBoard
      round={round}
      decideUrl={`/api/client/media/${mediaId}/round/decision`}
      onChanged={(next) => {
        setRound(next);
        onDecided();
      }}
    />
  );
}
