import { useEffect, useState } from 'react';
import { Download, Lock, Play } from 'lucide-react';
import { PreparingPreview, useProcessingPoll } from '../ui/playback.tsx';
import type { ClientMedia } from '../../shared/schemas/portal.ts';
import { Badge } from '../ui/Badge.tsx';
import { ApprovalBadge } from '../review/ApprovalBadge.tsx';
import { MediaPreview } from './MediaPreview.tsx';
import { formatDate, stageLabel } from './format.ts';

/** Tags shown on a client card (001 §9). */
const CARD_TAGS = 2;

export function MediaCard({
  item,
  selected,
  onToggle,
  onOpen,
}: {
  item: ClientMedia;
  selected: boolean;
  onToggle: (checked: boolean) => void;
  onOpen: () => void;
}) {
  const extra = item.tags.length - CARD_TAGS;
  // Progress is polled live while the review proxy is being made.
  const [live, setLive] = useState(item);
  useEffect(() => setLive(item), [item]);
  useProcessingPoll(live, item.type === 'video' && !item.playbackUrl ? `/api/client/media/${item.id}/processing` : null, setLive);
  const preparing = item.type === 'video' && !live.playbackUrl;
  return (
    <li
      data-testid="media-card"
      className={`relative flex flex-col overflow-hidden rounded-xl border bg-raised shadow-sm has-[button:focus-visible]:outline-2 has-[button:focus-visible]:outline-offset-2 has-[button:focus-visible]:outline-[var(--focus)] ${selected ? 'border-accent ring-2 ring-accent' : 'border-line'}`}
    >
      <div className="group relative aspect-video overflow-hidden bg-muted">
        <MediaPreview item={item} />
        {preparing ? (
          <PreparingPreview item={live} compact className="absolute inset-0 bg-black/60" />
        ) : item.type === 'video' && (
          <span className="absolute inset-0 flex items-center justify-center bg-black/10" aria-hidden="true">
            <span className="rounded-full bg-black/60 p-3 text-white">
              <Play size={20} />
            </span>
          </span>
        )}
      </div>
      <div className="space-y-2 p-3">
        <h3 className="truncate text-sm font-semibold">
          {/* The button stretches over the whole card (after:inset-0), so a click anywhere opens it. */}
          <button type="button" onClick={onOpen} className="text-left after:absolute after:inset-0 after:content-[''] focus-visible:outline-none">
            <span className="sr-only">Open </span>
            {item.title}
          </button>
        </h3>
        <p className="text-xs text-fg-muted">
          {item.type === 'video' ? 'Video' : 'Image'} · {formatDate(item.createdAt)}
          {item.projectStage ? ` · ${stageLabel(item.projectStage)}` : ''}
        </p>
        <div className="flex flex-wrap items-center gap-1">
          {item.version > 1 && (
            <Badge tone="outline">
              <span data-testid="card-version">{`v${item.version}`}</span>
            </Badge>
          )}
          <ApprovalBadge status={item.approvalStatus} locked={item.approvalLocked} />
        </div>
        {item.tags.length > 0 && (
          <div className="flex flex-wrap gap-1">
            {item.tags.slice(0, CARD_TAGS).map((t) => (
              <Badge key={t} tone="outline">
                {t}
              </Badge>
            ))}
            {extra > 0 && <Badge tone="default">+{extra}</Badge>}
          </div>
        )}
      </div>
      <label className="absolute left-2 top-2 z-10 flex h-9 w-9 cursor-pointer items-center justify-center rounded-md bg-black/60">
        <input
          type="checkbox"
          checked={selected}
          onChange={(e) => onToggle(e.target.checked)}
          aria-label={`Select ${item.title}`}
          className="h-4 w-4 cursor-pointer accent-[var(--accent)]"
        />
      </label>
      {item.downloadUrl ? (
        <a
          href={item.downloadUrl}
          download={item.filename || ''}
          aria-label={`Download ${item.title}`}
          className="absolute right-2 top-2 z-10 inline-flex h-9 w-9 items-center justify-center rounded-md bg-black/60 text-white transition-colors hover:bg-black/80"
        >
          <Download size={16} aria-hidden="true" />
        </a>
      ) : item.downloadBlockedReason ? (
        // Downloads wait for approval (issue 30): the button says why, on hover and to screen readers.
        <button
          type="button"
          disabled
          title={item.downloadBlockedReason}
          aria-label={`Download ${item.title}: ${item.downloadBlockedReason}`}
          data-testid="card-download-blocked"
          className="absolute right-2 top-2 z-10 inline-flex h-9 w-9 cursor-not-allowed items-center justify-center rounded-md bg-black/60 text-white"
        >
          <Lock size={16} aria-hidden="true" />
        </button>
      ) : null}
    </li>
  );
}
