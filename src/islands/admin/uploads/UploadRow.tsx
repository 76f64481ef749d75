import type { ReactNode } from 'react';
import { Button } from '../../ui/Button.tsx';
import { formatBytes } from '../media/format.ts';
import { CONNECTION_LOST } from '../media/resumable.ts';
import { formatDuration, pause, resume, retry, type UploadItem } from './queue.ts';

/** One queued file: progress bar, status, speed and time left, pause/resume and Retry; a new version says of what. */
export function UploadRow({ item, labelled, actions }: { item: UploadItem; labelled: boolean; actions?: ReactNode }) {
  const name = item.file.name;
  const pct = item.phase === 'finishing' || item.phase === 'done' ? 100 : item.total ? Math.min(100, Math.floor((item.sent / item.total) * 100)) : 0;
  const status =
    item.phase === 'waiting'
      ? 'Waiting…'
      : item.phase === 'finishing'
        ? '100% · Processing…'
        : item.phase === 'done'
          ? '100% · Done'
          : item.phase === 'failed'
            ? `${pct}% · Failed`
            : item.phase === 'paused'
              ? `${pct}% · Paused`
              : `${pct}%`;
  const rate =
    item.phase === 'uploading' && item.speed && item.speed > 0
      ? `${formatBytes(item.speed)}/s · ${formatDuration((item.total - item.sent) / item.speed)}`
      : '';
  const canPause = item.phase === 'uploading' || item.phase === 'retrying';
  return (
    <li className="flex items-end gap-2" data-testid="upload-item" data-phase={item.phase}>
      <div className="min-w-0 flex-1 space-y-1.5" data-testid="upload-progress">
        {labelled && <p className="truncate text-sm font-medium">{name}</p>}
        {labelled && item.versionOf && (
          <p className="truncate text-xs text-fg-muted" data-testid="upload-version-of">{`New version of “${item.versionOf.title}”`}</p>
        )}
        <div
          role="progressbar"
          aria-label={labelled ? `Upload progress: ${name}` : 'Upload progress'}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
          aria-valuetext={`${status}${rate ? `, ${rate}` : ''}`}
          className="h-2.5 w-full overflow-hidden rounded-full bg-muted"
        >
          <div
            className={`h-full transition-[width] duration-150 ${item.phase === 'failed' ? 'bg-danger' : item.phase === 'paused' || item.phase === 'retrying' ? 'bg-fg-muted' : 'bg-accent'}`}
            style={{ width: `${pct}%` }}
          />
        </div>
        <p className="flex flex-wrap justify-between gap-x-3 gap-y-0.5 text-xs text-fg-muted" aria-live="polite">
          <span data-testid="upload-percent">{status}</span>
          {item.phase === 'retrying' && (
            <span className="font-medium text-fg" role="status">
              {CONNECTION_LOST}
            </span>
          )}
          {rate && <span data-testid="upload-rate">{rate}</span>}
          <span>{`${formatBytes(item.sent)} of ${formatBytes(item.total)}`}</span>
        </p>
        {item.error && (
          <p className="text-xs text-danger" role="alert">
            {item.error}
          </p>
        )}
      </div>
      {canPause && (
        <Button variant="ghost" size="sm" onClick={() => pause(item.id)} aria-label={`Pause upload of ${name}`}>
          Pause
        </Button>
      )}
      {item.phase === 'paused' && (
        <Button variant="ghost" size="sm" onClick={() => resume(item.id)} aria-label={`Resume upload of ${name}`}>
          Resume
        </Button>
      )}
      {item.phase === 'failed' && (
        <Button variant="outline" size="sm" onClick={() => retry(item.id)} aria-label={`Retry upload of ${name}`}>
          Retry
        </Button>
      )}
      {actions}
    </li>
  );
}
