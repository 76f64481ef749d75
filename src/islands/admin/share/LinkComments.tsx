// Feedback and timeline notes left through share links on one item (issue 17), in the media
// detail dialog under the clients' own. Shown only when there are some.
import { useEffect, useState } from 'react';
import { apiJson } from '../../../shared/api.ts';
import { formatTimestamp } from '../../../shared/format.ts';
import type { ShareComment } from '../../../shared/schemas/share.ts';
import { formatDate } from '../media/format.ts';

export function LinkComments({ mediaId }: { mediaId: number }) {
  const [comments, setComments] = useState<ShareComment[]>([]);
  useEffect(() => {
    apiJson<ShareComment[]>('GET', `/api/media/${mediaId}/share-comments`).then(setComments, () => setComments([]));
  }, [mediaId]);
  if (!comments.length) return null;
  return (
    <section aria-labelledby="link-comments-heading" className="space-y-2">
      <h3 id="link-comments-heading" className="text-sm font-semibold">
        Through share links
      </h3>
      <ul className="space-y-2" data-testid="link-comments">
        {comments.map((c) => (
          <li key={c.id} className="rounded-lg border border-line p-3 text-sm">
            <p className="whitespace-pre-line">
              {c.kind === 'note' && <span className="mr-2 rounded bg-muted px-2 py-0.5 font-mono text-xs tabular-nums">{formatTimestamp(c.timestampSeconds ?? 0)}</span>}
              {c.kind === 'feedback' && <span className="mr-2 text-xs font-medium">{`${c.rating} / 5`}</span>}
              {c.text}
            </p>
            <p className="mt-1 text-xs text-fg-muted">{`${c.guestName} · link “${c.linkName ?? ''}” · v${c.versionNumber ?? '?'} · ${formatDate(c.createdAt)}`}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
