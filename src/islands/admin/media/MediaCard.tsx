import { memo, type ReactNode } from 'react';
import { Calendar, Clock, MessageSquare, MoreVertical, Settings, Star, Trash2, Users, Eye, Pencil, UserPlus, Film, Image as ImageIcon, Upload, Layers, Link2 } from 'lucide-react';
import { ApprovalBadge } from '../../review/ApprovalBadge.tsx';
import { awaitingApproval } from './filtering.ts';
import type { AdminMedia } from '../../../shared/schemas/media.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Menu, type MenuItem } from '../../ui/Menu.tsx';
import { formatDate, stageLabel } from './format.ts';
import { MediaThumb } from './MediaThumb.tsx';

export type CardAction = 'feedback' | 'edit' | 'assign' | 'settings' | 'delete' | 'version' | 'share';

interface Props {
  item: AdminMedia;
  selected: boolean;
  canEdit: boolean;
  canAssign: boolean;
  canUpload?: boolean;
  /** share:media: "Share link" opens the new-link dialog with this item chosen. */
  canShare?: boolean;
  onToggleSelect: (id: number) => void;
  onAction: (action: CardAction, item: AdminMedia) => void;
}

const VISIBLE_TAGS = 3;

/**
 * Reviews or notes of the current version, and (issue 53) those left on earlier versions, so a
 * fresh v2 does not read as an item nobody has commented on: "0 · 5 earlier", read out as
 * "0 notes on v2 · 5 on earlier versions".
 */
function ReviewCount({ icon, what, title, current, earlier, version }: { icon: ReactNode; what: string; title: string; current: number; earlier: number; version: number }) {
  const full = earlier > 0 ? `${current} ${what} on v${version} · ${earlier} on earlier versions` : `${current} ${what}`;
  return (
    <span className="inline-flex items-center gap-1 text-xs text-fg-muted" title={earlier > 0 ? `${title}: ${current} on v${version} · ${earlier} on earlier versions` : title} data-testid={`card-${what}`}>
      {icon}
      <span aria-hidden="true">
        {current}
        {earlier > 0 && ` · ${earlier} earlier`}
      </span>
      <span className="sr-only">{full}</span>
    </span>
  );
}

/** One media card with every element of 001 §2; memoised so selection and filtering stay cheap. */
export const MediaCard = memo(function MediaCard({ item, selected, canEdit, canAssign, canUpload = false, canShare = false, onToggleSelect, onAction }: Props) {
  const items: MenuItem[] = [
    { label: 'View Feedback', icon: <Eye size={16} />, onSelect: () => onAction('feedback', item) },
    ...(canEdit ? [{ label: 'Edit Media', icon: <Pencil size={16} />, onSelect: () => onAction('edit', item) }] : []),
    ...(canAssign ? [{ label: 'Assign Client', icon: <UserPlus size={16} />, onSelect: () => onAction('assign', item) }] : []),
    ...(canUpload ? [{ label: 'Upload new version', icon: <Upload size={16} />, onSelect: () => onAction('version', item) }] : []),
    ...(canShare ? [{ label: 'Share link', icon: <Link2 size={16} />, onSelect: () => onAction('share', item) }] : []),
    { label: 'Media Settings', icon: <Settings size={16} />, onSelect: () => onAction('settings', item) },
    { label: 'Delete Media', icon: <Trash2 size={16} />, destructive: true, onSelect: () => onAction('delete', item) },
  ];
  // 001 §2: the overlay marks feedback; timeline notes alone do not count as a review.
  const reviewed = item.feedbackCount > 0;
  return (
    <article
      data-testid="media-card"
      data-media-id={item.id}
      aria-label={item.title}
      className={`group flex w-full flex-col overflow-hidden rounded-xl border bg-raised shadow-sm transition-colors ${selected ? 'border-accent ring-2 ring-accent' : 'border-line'}`}
    >
      <div className="relative aspect-video bg-muted">
        {/* Named by its content, not aria-label: a "Preparing preview" or failure text shown on the
            thumbnail is then part of the button's name (WCAG 2.5.3, label in name). */}
        <button type="button" onClick={() => onAction('feedback', item)} className="block h-full w-full">
          <span className="sr-only">Open {item.title}</span>
          <MediaThumb item={item} />
        </button>
        <label className="absolute left-2 top-2 flex h-7 w-7 cursor-pointer items-center justify-center rounded-md bg-black/55">
          <input type="checkbox" checked={selected} onChange={() => onToggleSelect(item.id)} aria-label={`Select ${item.title}`} className="h-4 w-4 accent-[var(--accent)]" />
        </label>
        {item.projectStage && (
          <span className="absolute right-2 top-2 rounded-full bg-black/65 px-2 py-0.5 text-xs font-medium text-white" data-testid="card-stage">
            {stageLabel(item.projectStage)}
          </span>
        )}
        <span className="absolute bottom-2 left-2 rounded bg-black/60 p-1 text-white">
          {item.type === 'video' ? <Film size={14} aria-label="Video" /> : <ImageIcon size={14} aria-label="Image" />}
        </span>
        {reviewed && (
          <span className="absolute bottom-2 right-2 flex items-center gap-1 rounded-full bg-accent px-2 py-0.5 text-xs font-semibold text-accent-fg">
            <MessageSquare size={12} aria-hidden="true" /> Client Review
          </span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-3">
        <div className="flex items-start justify-between gap-2">
          <h3 className="line-clamp-2 min-w-0 text-sm font-semibold" data-testid="card-title" title={item.title}>
            {item.title}
          </h3>
          <Menu label={`Actions for ${item.title}`} trigger={<MoreVertical size={16} aria-hidden="true" />} items={items} />
        </div>
        <div className="flex flex-wrap items-center gap-1.5">
          {item.isFeatured && (
            <Badge tone="accent">
              <Star size={12} aria-hidden="true" /> Featured
            </Badge>
          )}
          {item.showInPortfolio && <Badge tone="outline">Portfolio</Badge>}
          {item.version > 1 && (
            <Badge tone="outline">
              <Layers size={12} aria-hidden="true" />
              <span data-testid="card-version">{`v${item.version}`}</span>
            </Badge>
          )}
          {(item.approvalStatus !== 'in_review' || awaitingApproval(item)) && <ApprovalBadge status={item.approvalStatus} locked={item.approvalLocked} />}
          <span className="inline-flex items-center gap-1 text-xs text-fg-muted" title="Assigned clients" data-testid="card-clients">
            <Users size={12} aria-hidden="true" /> {item.assignedClients.length}
            <span className="sr-only">assigned clients</span>
          </span>
          <ReviewCount icon={<MessageSquare size={12} aria-hidden="true" />} what="reviews" title="Client reviews" current={item.feedbackCount} earlier={item.earlierFeedbackCount} version={item.version} />
          <ReviewCount icon={<Clock size={12} aria-hidden="true" />} what="notes" title="Timeline notes" current={item.noteCount} earlier={item.earlierNoteCount} version={item.version} />
        </div>
        {item.notes && <p className="line-clamp-2 text-xs text-fg-muted">{item.notes}</p>}
        <p className="mt-auto flex items-center gap-1 text-xs text-fg-muted">
          <Calendar size={12} aria-hidden="true" />
          <time dateTime={item.createdAt}>{formatDate(item.createdAt)}</time>
        </p>
        {item.tags.length > 0 && (
          <ul className="flex flex-wrap gap-1" aria-label="Tags" data-testid="card-tags">
            {item.tags.slice(0, VISIBLE_TAGS).map((t) => (
              <li key={t}>
                <Badge>{t}</Badge>
              </li>
            ))}
            {item.tags.length > VISIBLE_TAGS && (
              <li>
                <Badge tone="outline">{`+${item.tags.length - VISIBLE_TAGS}`}</Badge>
              </li>
            )}
          </ul>
        )}
      </div>
    </article>
  );
});
