import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { AdminMedia } from '../../../shared/schemas/media.ts';
import type { MediaVersion } from '../../../shared/schemas/review.ts';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { formatBytes } from './format.ts';
import { ResumableUpload, type Phase } from './resumable.ts';
import { ACCEPT_ATTR, checkUploadFile } from './upload.ts';

/**
 * "Upload new version" (issue 16): one file through the resumable upload, with progress and
 * pause/resume, finished with POST /api/media/{id}/versions. The new version becomes current
 * and the client's decision starts again at "In review".
 */
export function VersionUploadDialog({ item, onClose, onUploaded }: { item: AdminMedia | null; onClose: () => void; onUploaded: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState('');
  const [progress, setProgress] = useState<{ sent: number; total: number; phase: Phase | 'finishing' } | null>(null);
  const handle = useRef<ResumableUpload | null>(null);

  useEffect(() => {
    if (item) return;
    setFile(null);
    setError('');
    setProgress(null);
  }, [item]);

  const close = () => {
    if (handle.current) void handle.current.cancel();
    handle.current = null;
    onClose();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!item) return;
    if (!file) return setError('Please select a file');
    const problem = checkUploadFile(file);
    if (problem) return setError(problem);
    setError('');
    const upload = new ResumableUpload(file, {
      onProgress: (sent, total) => setProgress((p) => ({ sent, total, phase: p?.phase === 'paused' ? 'paused' : 'uploading' })),
      onPhase: (phase) => setProgress((p) => ({ sent: p?.sent ?? 0, total: p?.total ?? file.size, phase })),
    });
    handle.current = upload;
    setProgress({ sent: 0, total: file.size, phase: 'uploading' });
    try {
      await upload.start();
      const uploadId = await upload.done;
      setProgress({ sent: file.size, total: file.size, phase: 'finishing' });
      const res = await apiJson<{ version: MediaVersion }>('POST', `/api/media/${item.id}/versions`, { uploadId });
      toast({ title: `Version v${res.version.number} uploaded`, description: `${item.title} is now at v${res.version.number}; its approval is back to In review.` });
      handle.current = null;
      onUploaded();
      onClose();
    } catch (err) {
      handle.current = null;
      setProgress(null);
      if (errorMessage(err) !== 'Upload cancelled') setError(errorMessage(err, 'Upload failed'));
    }
  };

  const pct = progress && progress.total ? Math.round((progress.sent / progress.total) * 100) : 0;
  return (
    <Dialog open={!!item} onClose={close} title="Upload new version" description={item ? `A new cut of “${item.title}”. Earlier versions stay viewable.` : undefined}>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div className="space-y-1.5">
          <label htmlFor="version-file" className="block text-sm font-medium">
            File
          </label>
          <input
            id="version-file"
            type="file"
            accept={ACCEPT_ATTR}
            disabled={!!progress}
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
        {progress && (
          <div className="space-y-1" data-testid="version-progress">
            <div
              role="progressbar"
              aria-label="Upload progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={pct}
              className="h-2 overflow-hidden rounded-full bg-muted"
            >
              <div className="h-full bg-accent transition-[width]" style={{ width: `${pct}%` }} />
            </div>
            <p className="text-xs text-fg-muted">
              {progress.phase === 'finishing' ? 'Preparing the new version…' : progress.phase === 'paused' ? `Paused at ${pct}%` : progress.phase === 'retrying' ? 'Connection lost, retrying...' : `${pct}%`}
            </p>
          </div>
        )}
        <div className="flex justify-end gap-2">
          {progress && progress.phase !== 'finishing' && (
            <Button
              type="button"
              variant="outline"
              onClick={() => (progress.phase === 'paused' ? handle.current?.resume() : handle.current?.pause())}
            >
              {progress.phase === 'paused' ? 'Resume' : 'Pause'}
            </Button>
          )}
          <Button type="button" variant="ghost" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={!!progress}>
            Upload version
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
