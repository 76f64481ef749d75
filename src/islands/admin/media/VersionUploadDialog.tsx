import { useEffect, useState, type FormEvent } from 'react';
import type { AdminMedia } from '../../../shared/schemas/media.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { formatBytes } from './format.ts';
import { ACCEPT_ATTR, checkUploadFile } from './upload.ts';
import { $uploads, alreadyUploadingError, enqueueVersion, isRunning } from '../uploads/queue.ts';
import { UploadBatchFooter, useUploadBatch } from '../uploads/UploadBatch.tsx';

/**
 * "Upload new version" (issue 16): one file through the upload queue (../uploads/queue.ts), as
 * Upload New Media sends its files, finished with POST /api/media/{id}/versions. The new version
 * becomes current and the client's decision starts again at "In review". The dialog may be
 * closed while the file uploads: it goes on in the tray (issue 32), and the media list and an
 * open detail dialog move to the new version when it is done (MediaManager reloads on $finished).
 */
export function VersionUploadDialog({ item, onClose }: { item: AdminMedia | null; onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState('');
  const { setBatch, items, uploading, finished } = useUploadBatch(onClose);

  useEffect(() => {
    setFile(null);
    setError('');
    // Opened again while a new version of this item uploads: that upload, not a second one.
    const running = item && $uploads.get().find((it) => it.versionOf?.id === item.id && isRunning(it));
    setBatch(running ? running.batch : null);
  }, [item, setBatch]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!item) return;
    if (!file) return setError('Please select a file');
    const problem = checkUploadFile(file) ?? alreadyUploadingError(file);
    if (problem) return setError(problem);
    setError('');
    setBatch(enqueueVersion(file, { id: item.id, title: item.title }));
  };

  return (
    <Dialog
      open={!!item}
      onClose={onClose}
      title="Upload new version"
      description={item ? `A new cut of “${item.title}”. Earlier versions stay viewable.` : undefined}
      footer={
        uploading ? (
          <UploadBatchFooter items={items} finished={finished} onClose={onClose} testId="version-progress" />
        ) : (
          <>
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" form="version-upload-form">
              Upload version
            </Button>
          </>
        )
      }
    >
      <form id="version-upload-form" onSubmit={submit} className="space-y-4" noValidate>
        <div className="space-y-1.5">
          <label htmlFor="version-file" className="block text-sm font-medium">
            File
          </label>
          <input
            id="version-file"
            type="file"
            accept={ACCEPT_ATTR}
            disabled={uploading}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setError('');
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'version-file-error' : undefined}
            className="block w-full text-sm"
          />
          {file && <p className="text-xs text-fg-muted">{`${file.name} · ${formatBytes(file.size)}`}</p>}
          {error && (
            <p id="version-file-error" className="text-sm text-danger" role="alert">
              {error}
            </p>
          )}
        </div>
      </form>
    </Dialog>
  );
}
