import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { Button } from '../../ui/Button.tsx';
import { $uploads, cancel, isRunning, type UploadItem } from './queue.ts';
import { UploadRow } from './UploadRow.tsx';

/**
 * The files a dialog queued with one click (its batch), for the dialog to show while they
 * upload. `onDone` runs shortly after every one of them is done: the dialog closes itself then.
 */
export function useUploadBatch(onDone: () => void) {
  const [batch, setBatch] = useState<number | null>(null);
  const all = useStore($uploads);
  const items = batch === null ? [] : all.filter((it) => it.batch === batch);
  const uploading = items.length > 0;
  const finished = uploading && items.every((it) => !isRunning(it));
  const allDone = finished && items.every((it) => it.phase === 'done');

  // Cancelling every file of the batch brings the form back, as before anything was sent.
  useEffect(() => {
    if (batch !== null && !uploading) setBatch(null);
  }, [batch, uploading]);

  useEffect(() => {
    if (!allDone) return;
    // Long enough to see 100 % before the dialog goes.
    const t = setTimeout(onDone, 400);
    return () => clearTimeout(t);
  }, [allDone, onDone]);

  return { batch, setBatch, items, uploading, finished };
}

/**
 * A dialog's footer while its batch uploads: each file's row, then Cancel Upload and "Continue
 * in background" (closing the dialog leaves the uploads to the tray), or Close once none runs.
 */
export function UploadBatchFooter({ items, finished, onClose, testId }: { items: UploadItem[]; finished: boolean; onClose: () => void; testId?: string }) {
  return (
    <div className="flex w-full flex-col gap-3">
      <ul className="min-w-0 space-y-3" aria-label="Uploads" data-testid={testId}>
        {items.map((it) => (
          <UploadRow key={it.id} item={it} labelled={items.length > 1} />
        ))}
      </ul>
      <div className="flex flex-wrap items-center justify-end gap-2">
        {!finished && (
          <p className="mr-auto text-xs text-fg-muted">{`You can close this window: ${items.length > 1 ? 'uploads continue' : 'the upload continues'} in the background.`}</p>
        )}
        {!finished && (
          <Button variant="outline" onClick={() => void cancel(items.map((it) => it.id))}>
            Cancel Upload
          </Button>
        )}
        <Button variant={finished ? 'outline' : 'primary'} onClick={onClose}>
          {finished ? 'Close' : 'Continue in background'}
        </Button>
      </div>
    </div>
  );
}
