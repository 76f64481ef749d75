import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useClearFixedErrors } from '../../ui/useLiveErrors.ts';
import { PROJECT_STAGES } from '../../../shared/schemas/media.ts';
import { toast } from '../../../shared/toast.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { Textarea } from '../../ui/Textarea.tsx';
import { formatBytes, stageLabel } from './format.ts';
import type { ClientOption } from './media-api.ts';
import { errorMessage } from '../../../shared/api.ts';
import { ACCEPT_ATTR, UploadAborted, checkPosterFile, checkUploadFile, sendUpload, type UploadProgress } from './upload.ts';

const EMPTY = { title: '', projectStage: '', notes: '', clientId: '', tags: '', isFeatured: false, showInPortfolio: false };

/** 'Upload New Media' (001 §2, §5): checks type and size first, then shows real upload progress. */
export function UploadDialog({ open, onClose, clients, onUploaded }: { open: boolean; onClose: () => void; clients: ClientOption[]; onUploaded: () => void }) {
  const [values, setValues] = useState(EMPTY);
  const [file, setFile] = useState<File | null>(null);
  const [poster, setPoster] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const abort = useRef<AbortController | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const uploading = progress !== null;

  useEffect(() => {
    if (!open) {
      setValues(EMPTY);
      setFile(null);
      setPoster(null);
      setErrors({});
      setProgress(null);
    }
  }, [open]);

  const set = <K extends keyof typeof EMPTY>(k: K, v: (typeof EMPTY)[K]) => setValues((s) => ({ ...s, [k]: v }));
  useClearFixedErrors({ title: values.title }, (v): Record<string, string> => (v.title.trim() ? {} : { title: 'Title is required' }), setErrors);

  function chooseFile(f: File | null) {
    setFile(f);
    const fileError = f ? checkUploadFile(f) : null;
    setErrors((e) => ({ ...e, file: fileError ?? '' }));
    // A refused file names nothing that will be uploaded, so it does not fill the title.
    if (f && !fileError && !values.title.trim()) set('title', f.name.replace(/\.[^.]+$/, '').replace(/[-_]+/g, ' ').trim());
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!file) {
      setErrors({ file: 'Please select a file', ...(values.title.trim() ? {} : { title: 'Title is required' }) });
      toast({ title: 'No file selected', description: 'Please select a file to upload.', variant: 'destructive' });
      return;
    }
    const errs: Record<string, string> = {};
    const fileError = checkUploadFile(file);
    if (fileError) errs.file = fileError;
    if (!values.title.trim()) errs.title = 'Title is required';
    if (poster) {
      const posterError = checkPosterFile(poster);
      if (posterError) errs.posterFile = posterError;
    }
    setErrors(errs);
    if (Object.keys(errs).length) return;

    const form = new FormData();
    form.set('title', values.title.trim());
    form.set('projectStage', values.projectStage);
    form.set('notes', values.notes);
    form.set('clientId', values.clientId);
    form.set('tags', values.tags);
    form.set('isFeatured', String(values.isFeatured));
    form.set('showInPortfolio', String(values.showInPortfolio));
    form.set('file', file);
    if (poster) form.set('posterFile', poster);

    const controller = new AbortController();
    abort.current = controller;
    setProgress({ loaded: 0, total: file.size });
    try {
      await sendUpload(form, setProgress, controller.signal);
      // Small files can finish before a progress event is painted: show the full bar briefly.
      setProgress({ loaded: file.size, total: file.size });
      toast({ title: 'Media uploaded', description: `"${values.title.trim()}" has been uploaded.` });
      onUploaded();
      await new Promise((r) => setTimeout(r, 400));
      onClose();
    } catch (err) {
      setProgress(null);
      if (err instanceof UploadAborted) {
        toast({ title: 'Upload cancelled', description: 'Nothing was saved.' });
      } else {
        toast({ title: 'Upload failed', description: errorMessage(err, 'Upload failed'), variant: 'destructive' });
      }
    } finally {
      abort.current = null;
    }
  }

  const pct = progress && progress.total ? Math.min(100, Math.round((progress.loaded / progress.total) * 100)) : 0;

  return (
    <Dialog
      open={open}
      onClose={() => (uploading ? undefined : onClose())}
      title="Upload New Media"
      description="Images and videos (JPG, PNG, GIF, MP4, MOV, AVI, MKV), up to 2500MB."
      size="lg"
      footer={
        uploading && progress ? (
          <div className="flex w-full items-center gap-4">
            <div className="min-w-0 flex-1 space-y-1.5" data-testid="upload-progress">
              <div
                role="progressbar"
                aria-label="Upload progress"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={pct}
                className="h-2.5 w-full overflow-hidden rounded-full bg-muted"
              >
                <div className="h-full bg-accent transition-[width] duration-150" style={{ width: `${pct}%` }} />
              </div>
              <p className="flex justify-between gap-2 text-xs text-fg-muted" aria-live="polite">
                <span data-testid="upload-percent">{pct >= 100 ? '100% · Processing…' : `${pct}%`}</span>
                <span>{`${formatBytes(progress.loaded)} of ${formatBytes(progress.total)}`}</span>
              </p>
            </div>
            <Button variant="outline" onClick={() => abort.current?.abort()}>
              Cancel Upload
            </Button>
          </div>
        ) : (
          <>
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" form="media-upload-form">
              Upload
            </Button>
          </>
        )
      }
    >
      <form id="media-upload-form" onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Upload media">
        <fieldset disabled={uploading} className="space-y-4">
          <div className="space-y-1.5">
            <label htmlFor="upload-file" className="block text-sm font-medium">
              File
            </label>
            <input
              ref={fileInput}
              id="upload-file"
              name="file"
              type="file"
              accept={ACCEPT_ATTR}
              aria-invalid={errors.file ? true : undefined}
              onChange={(e) => chooseFile(e.target.files?.[0] ?? null)}
              className="block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-muted file:px-3 file:py-2 file:text-sm file:font-medium file:text-fg"
            />
            {file && !errors.file && <p className="text-xs text-fg-muted">{`${file.name} · ${formatBytes(file.size)}`}</p>}
            {errors.file && <p className="text-sm text-danger">{errors.file}</p>}
          </div>
          <div className="space-y-1.5">
            <label htmlFor="upload-poster" className="block text-sm font-medium">
              Poster image (optional)
            </label>
            <input
              id="upload-poster"
              type="file"
              accept="image/jpeg,image/png,image/gif,image/webp"
              onChange={(e) => setPoster(e.target.files?.[0] ?? null)}
              className="block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-muted file:px-3 file:py-2 file:text-sm file:font-medium file:text-fg"
            />
            {errors.posterFile ? <p className="text-sm text-danger">{errors.posterFile}</p> : <p className="text-xs text-fg-muted">Shown before a video plays.</p>}
          </div>
          <Field label="Title" name="title" value={values.title} onChange={(e) => set('title', e.target.value)} error={errors.title} maxLength={200} />
          <div className="grid gap-4 sm:grid-cols-2">
            <Select
              label="Project Stage"
              value={values.projectStage}
              onChange={(e) => set('projectStage', e.target.value)}
              options={[{ value: '', label: 'No stage' }, ...PROJECT_STAGES.map((s) => ({ value: s, label: stageLabel(s) }))]}
            />
            <Select
              label="Client"
              value={values.clientId}
              onChange={(e) => set('clientId', e.target.value)}
              options={[{ value: '', label: 'No client' }, ...clients.map((c) => ({ value: String(c.id), label: c.name }))]}
            />
          </div>
          <Textarea label="Notes" rows={3} value={values.notes} onChange={(e) => set('notes', e.target.value)} />
          <Field label="Tags" hint="Separate tags with commas" value={values.tags} onChange={(e) => set('tags', e.target.value)} placeholder="wedding, highlights" />
          <Switch label="Featured" description="Shown on the home page" checked={values.isFeatured} onChange={(v) => set('isFeatured', v)} />
          <Switch label="Show in Portfolio" checked={values.showInPortfolio} onChange={(v) => set('showInPortfolio', v)} />
        </fieldset>
      </form>
    </Dialog>
  );
}
