import { Archive, ArchiveRestore, Mail, Reply } from 'lucide-react';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { projectTypeLabel, type Enquiry } from '../../../shared/schemas/enquiry.ts';
import { formatReceived, fullName, replyHref } from './format.ts';
import { StatusBadge } from './StatusBadge.tsx';

/** One enquiry in full, with Reply by email, Archive / Restore and Mark as new. */
export function EnquiryDetail({
  enquiry,
  pending,
  onClose,
  onStatus,
}: {
  enquiry: Enquiry | null;
  pending: boolean;
  onClose: () => void;
  onStatus: (e: Enquiry, status: Enquiry['status']) => void;
}) {
  const e = enquiry;
  return (
    <Dialog
      open={!!e}
      onClose={onClose}
      title={e ? `Enquiry from ${fullName(e)}` : 'Enquiry'}
      description={e && <>Received {formatReceived(e.createdAt)}</>}
      size="lg"
      footer={
        e && (
          <>
            {e.status === 'archived' ? (
              <Button variant="outline" disabled={pending} onClick={() => onStatus(e, 'read')}>
                <ArchiveRestore size={16} aria-hidden="true" /> Restore
              </Button>
            ) : (
              <>
                <Button variant="ghost" disabled={pending} onClick={() => onStatus(e, 'new')}>
                  <Mail size={16} aria-hidden="true" /> Mark as new
                </Button>
                <Button variant="outline" disabled={pending} onClick={() => onStatus(e, 'archived')}>
                  <Archive size={16} aria-hidden="true" /> Archive
                </Button>
              </>
            )}
            <a href={replyHref(e)} className={buttonClass('primary')}>
              <Reply size={16} aria-hidden="true" /> Reply by email
            </a>
          </>
        )
      }
    >
      {e && (
        <div className="space-y-4">
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-fg-muted">Email</dt>
            <dd className="min-w-0 break-words">
              <a href={`mailto:${e.email}`} className="underline-offset-2 hover:underline">
                {e.email}
              </a>
            </dd>
            <dt className="text-fg-muted">Project type</dt>
            <dd>{projectTypeLabel(e.projectType) || 'Not specified'}</dd>
            <dt className="text-fg-muted">Status</dt>
            <dd>
              <StatusBadge status={e.status} />
            </dd>
          </dl>
          <div>
            <h3 className="mb-1 text-sm font-medium text-fg-muted">Message</h3>
            <p className="whitespace-pre-wrap break-words rounded-md bg-muted p-4 text-sm" data-testid="enquiry-message">
              {e.message}
            </p>
          </div>
        </div>
      )}
    </Dialog>
  );
}
