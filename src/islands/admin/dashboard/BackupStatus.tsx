import { AlertTriangle, DatabaseBackup } from 'lucide-react';
import type { BackupStatus as Status } from '../../../shared/backup-status.ts';
import { Badge } from '../../ui/Badge.tsx';

const timeFmt = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' });

/** The last backup's time and result; a failure is shown in full, not only logged. */
export function BackupStatus({ status }: { status: Status }) {
  const last = status.last;
  const failed = last && !last.ok;
  return (
    <section
      aria-labelledby="backup-status"
      data-testid="backup-status"
      className={`flex flex-wrap items-start justify-between gap-4 rounded-xl border bg-raised p-4 shadow-sm ${failed ? 'border-red-700' : 'border-line'}`}
    >
      <div className="flex min-w-0 items-start gap-3">
        <span className={`rounded-lg bg-muted p-2 ${failed ? 'text-red-700 dark:text-red-400' : 'text-accent'}`} aria-hidden="true">
          {failed ? <AlertTriangle size={20} /> : <DatabaseBackup size={20} />}
        </span>
        <div className="min-w-0">
          <h2 id="backup-status" className="font-medium">
            Backups
          </h2>
          {last ? (
            <p className="text-sm text-fg-muted">
              Last backup <time dateTime={last.finishedAt}>{timeFmt.format(new Date(last.finishedAt))}</time>
              {last.ok ? ` · ${last.files} media files, ${last.newFiles} new` : ''}
              {last.trigger === 'command' ? ' · run by hand' : ''}
            </p>
          ) : (
            <p className="text-sm text-fg-muted">No backup has been taken yet.</p>
          )}
          {failed && (
            <p className="mt-1 break-words text-sm text-red-700 dark:text-red-400" data-testid="backup-error">
              {last.message}
            </p>
          )}
          <p className="text-xs text-fg-muted">
            {status.scheduled
              ? `Every ${status.intervalHours} h, keeping the last ${status.keep}.`
              : 'Scheduled backups are off: set BACKUP_DIR (see README, Backups).'}
          </p>
        </div>
      </div>
      {last && (
        <Badge tone={last.ok ? 'success' : 'danger'}>
          <span data-testid="backup-result">{last.ok ? 'Succeeded' : 'Failed'}</span>
        </Badge>
      )}
    </section>
  );
}
