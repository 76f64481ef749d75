import { Archive, ArchiveRestore } from 'lucide-react';
import { Button } from '../../ui/Button.tsx';
import { projectTypeLabel, type Enquiry } from '../../../shared/schemas/enquiry.ts';
import { formatAgo, formatReceived, fullName } from './format.ts';
import { StatusBadge } from './StatusBadge.tsx';

export function EnquiryRow({
  enquiry: e,
  pending,
  onOpen,
  onStatus,
}: {
  enquiry: Enquiry;
  pending: boolean;
  onOpen: (e: Enquiry) => void;
  onStatus: (e: Enquiry, status: Enquiry['status']) => void;
}) {
  const name = fullName(e);
  const type = projectTypeLabel(e.projectType);
  const unread = e.status === 'new';
  return (
    <li
      data-testid="enquiry-row"
      data-status={e.status}
      className={`flex flex-col gap-3 border-l-4 p-4 sm:flex-row sm:items-start ${unread ? 'border-l-accent' : 'border-l-transparent'}`}
    >
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            onClick={() => onOpen(e)}
            className={`text-left underline-offset-2 hover:underline ${unread ? 'font-semibold' : 'font-medium'}`}
            aria-label={`Open enquiry from ${name}`}
          >
            {name}
          </button>
          <StatusBadge status={e.status} />
          {type && <span className="rounded border border-line px-1.5 py-0.5 text-xs text-fg-muted">{type}</span>}
        </div>
        <a href={`mailto:${e.email}`} className="block truncate text-sm text-fg-muted underline-offset-2 hover:underline">
          {e.email}
        </a>
        <p className="line-clamp-2 break-words text-sm">{e.message}</p>
      </div>
      <div className="flex shrink-0 items-center justify-between gap-3 sm:flex-col sm:items-end">
        <time dateTime={e.createdAt} title={formatReceived(e.createdAt)} className="text-xs text-fg-muted">
          {formatAgo(e.createdAt)}
        </time>
        {e.status === 'archived' ? (
          <Button size="sm" variant="outline" disabled={pending} onClick={() => onStatus(e, 'read')} aria-label={`Restore enquiry from ${name}`}>
            <ArchiveRestore size={14} aria-hidden="true" /> Restore
          </Button>
        ) : (
          <Button size="sm" variant="outline" disabled={pending} onClick={() => onStatus(e, 'archived')} aria-label={`Archive enquiry from ${name}`}>
            <Archive size={14} aria-hidden="true" /> Archive
          </Button>
        )}
      </div>
    </li>
  );
}
