import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { ChevronDown, ChevronUp, X } from 'lucide-react';
import { Button } from '../../ui/Button.tsx';
import { $running, $uploads, cancel, dismiss, isRunning } from './queue.ts';
import { UploadRow } from './UploadRow.tsx';

/** Rows the tray lists at most; more are counted below them. */
const LISTED = 40;

/**
 * The admin area's upload tray (issue 32): every queued file with its progress, fixed at the
 * bottom right. AdminLayout renders it with transition:persist, so it and the uploads it shows
 * carry on across page changes within /admin. Hidden while nothing was queued.
 */
export default function UploadTray() {
  const items = useStore($uploads);
  const running = useStore($running);
  const [open, setOpen] = useState(true);

  // Closing the tab or leaving the admin area (a full page load) would end the uploads.
  useEffect(() => {
    if (!running) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older Chromium asks only when returnValue is set.
      e.returnValue = '';
    };
    addEventListener('beforeunload', ask);
    return () => removeEventListener('beforeunload', ask);
  }, [running]);

  if (!items.length) return null;
  const done = items.filter((it) => !isRunning(it));
  // A batch of hundreds (a gallery's stills, issue 42): the rows that move, failed ones and the
  // next waiting, up to LISTED; the rest are counted, so a progress tick re-renders a short list.
  const listed = items.length <= LISTED ? items : [...items.filter((it) => it.phase === 'failed'), ...items.filter((it) => isRunning(it))].slice(0, LISTED);
  const unlisted = items.length - listed.length;
  const failed = items.filter((it) => it.phase === 'failed').length;
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const summary = running
    ? `Uploading ${plural(running, 'file', 'files')}`
    : failed
      ? `${plural(failed, 'upload', 'uploads')} failed`
      : `${plural(items.length, 'upload', 'uploads')} finished`;
  return (
    <section
      aria-labelledby="upload-tray-title"
      data-testid="upload-tray"
      className="fixed bottom-4 right-4 z-40 w-[min(24rem,calc(100vw-2rem))] overflow-hidden rounded-xl border border-line bg-raised text-fg shadow-2xl"
    >
      <div className="flex items-center gap-2 border-b border-line px-4 py-2">
        <h2 id="upload-tray-title" className="min-w-0 flex-1 truncate text-sm font-semibold" aria-live="polite">
          {summary}
        </h2>
        <Button variant="ghost" size="icon" aria-expanded={open} aria-controls="upload-tray-list" aria-label={open ? 'Collapse uploads' : 'Expand uploads'} onClick={() => setOpen(!open)}>
          {open ? <ChevronDown size={18} aria-hidden="true" /> : <ChevronUp size={18} aria-hidden="true" />}
        </Button>
        {!running && (
          <Button variant="ghost" size="icon" aria-label="Close uploads" onClick={() => dismiss(items.map((it) => it.id))}>
            <X size={18} aria-hidden="true" />
          </Button>
        )}
      </div>
      <div id="upload-tray-list" hidden={!open} className="max-h-[50dvh] overflow-y-auto px-4 py-3">
        <ul className="space-y-3" aria-label="Uploads in progress">
          {listed.map((it) => (
            <UploadRow
              key={it.id}
              item={it}
              labelled
              actions={
                it.phase === 'finishing' ? null : isRunning(it) ? (
                  <Button variant="ghost" size="sm" aria-label={`Cancel upload of ${it.file.name}`} onClick={() => void cancel([it.id])}>
                    Cancel
                  </Button>
                ) : (
                  <Button variant="ghost" size="icon" aria-label={`Dismiss ${it.file.name}`} onClick={() => dismiss([it.id])}>
                    <X size={16} aria-hidden="true" />
                  </Button>
                )
              }
            />
          ))}
        </ul>
        {unlisted > 0 && (
          <p className="mt-3 text-xs text-fg-muted" data-testid="upload-tray-more">
            And {unlisted.toLocaleString('en-GB')} more ({Math.max(0, running - listed.filter((it) => isRunning(it)).length).toLocaleString('en-GB')} waiting, {done.filter((it) => it.phase === 'done').length.toLocaleString('en-GB')} finished).
          </p>
        )}
        {done.length > 0 && running > 0 && (
          <div className="mt-3 flex justify-end">
            <Button variant="outline" size="sm" onClick={() => dismiss(done.map((it) => it.id))}>
              Clear finished
            </Button>
          </div>
        )}
      </div>
    </section>
  );
}
