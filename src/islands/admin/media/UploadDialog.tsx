import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useClearFixedErrors } from '../../ui/useLiveErrors.ts';
import { stageOptions } from '../../../shared/stages.ts';
import { toast } from '../../../shared/toast.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { Textarea } from '../../ui/Textarea.tsx';
import { formatBytes } from './format.ts';
import type { ClientOption } from './media-api.ts';
import { ACCEPT_ATTR, checkPosterFile, checkUploadFile } from './upload.ts';
import { findResumable, type ResumeInfo } from './resumable.ts';
import { alreadyUploadingError, enqueue, fileKey, type UploadFields } from '../uploads/queue.ts';
import { EMPTY_FIELDS, forgetFields, keptFields, withSharedFields } from '../uploads/kept-fields.ts';
import { UploadBatchFooter, useUploadBatch } from '../uploads/UploadBatch.tsx';

export const titleFromName = (name: string) => name.replace(/\.[^.]+$/, '').replace(/[-_]+/g, ' ').trim();

/**
 * 'Upload New Media' (001 §2, §5): checks type and size first, then hands the files to the
 * upload queue (../uploads/queue.ts), which sends each as a resumable upload and finishes it
 * with POST /api/media { uploadId, ...fields }. The dialog shows its files' progress and may be
 * closed at any time: the uploads go on in the tray (issue 32).
 */
export function UploadDialog({
  open,
  onClose,
  clients,
  initialFiles,
  canPublish,
  userId,
}: {
  open: boolean;
  onClose: () => void;
  clients: ClientOption[];
  initialFiles?: File[] | null;
  /** edit:media: "Featured" and "Show in Portfolio" put a new item on the public site at once. */
  canPublish: boolean;
  /** The signed-in staff member: fields typed for a file are kept under their id alone. */
  userId: string;
}) {
  const [values, setValues] = useState(EMPTY_FIELDS);
  const [files, setFiles] = useState<File[]>([]);
  const [poster, setPoster] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [resumable, setResumable] = useState<Record<string, ResumeInfo>>({});
  /** Titles kept with interrupted uploads, for files chosen together (each titled on its own). */
  const [keptTitles, setKeptTitles] = useState<Record<string, string>>({});
  const { batch, setBatch, items, uploading, finished } = useUploadBatch(onClose);
  const fileInput = useRef<HTMLInputElement>(null);
  const single = files.length <= 1;

  useEffect(() => {
    if (!open) {
      setValues(EMPTY_FIELDS);
      setFiles([]);
      setPoster(null);
      setErrors({});
      setResumable({});
      setKeptTitles({});
      setBatch(null);
    } else if (initialFiles?.length && batch === null) {
      chooseFiles(initialFiles);
      // Dropped files show in the file field too, as if chosen there.
      if (fileInput.current) {
        const dt = new DataTransfer();
        for (const f of initialFiles) dt.items.add(f);
        fileInput.current.files = dt.files;
      }
    }
    // chooseFiles reads only setters and the values it is handed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, initialFiles]);

  const set = <K extends keyof UploadFields>(k: K, v: UploadFields[K]) => setValues((s) => ({ ...s, [k]: v }));
  useClearFixedErrors({ title: values.title }, (v): Record<string, string> => (v.title.trim() ? {} : { title: 'Title is required' }), setErrors);

  function chooseFiles(list: File[]) {
    setFiles(list);
    const problem = list.map((f) => checkUploadFile(f)).find(Boolean) ?? '';
    setErrors((e) => ({ ...e, file: problem }));
    // A refused file names nothing that will be uploaded, so it does not fill the title.
    if (list.length === 1 && !problem) setValues((v) => (v.title.trim() ? v : { ...v, title: titleFromName(list[0]!.name) }));
    setResumable({});
    setKeptTitles({});
    // An interrupted upload of the same file (same name, size, date) continues where it
    // stopped, with the fields typed for it then: for several files, each one's title, and the
    // settings the batch shared.
    const chosenAt = Date.now();
    for (const f of list) {
      if (checkUploadFile(f)) continue;
      findResumable(f)
        .then((info) => {
          // Nothing to continue: what was kept for an earlier upload goes, not what an upload
          // started since this check began has just kept (a slow check came after it).
          if (!info) return forgetFields(userId, f, chosenAt);
          setResumable((r) => ({ ...r, [fileKey(f)]: info }));
          const kept = keptFields(userId, f);
          if (!kept) return;
          if (list.length === 1) return setValues(kept);
          setKeptTitles((t) => ({ ...t, [fileKey(f)]: kept.title }));
          setValues((v) => withSharedFields(v, kept));
        })
        .catch(() => undefined);
    }
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!files.length) {
      setErrors({ file: 'Please select a file', ...(values.title.trim() || !single ? {} : { title: 'Title is required' }) });
      toast({ title: 'No file selected', description: 'Please select a file to upload.', variant: 'destructive' });
      return;
    }
    const errs: Record<string, string> = {};
    const fileError = files.map((f) => checkUploadFile(f)).find(Boolean) ?? files.map(alreadyUploadingError).find(Boolean) ?? null;
    if (fileError) errs.file = fileError;
    if (single && !values.title.trim()) errs.title = 'Title is required';
    if (poster && single) {
      const posterError = checkPosterFile(poster);
      if (posterError) errs.posterFile = posterError;
    }
    setErrors(errs);
    if (Object.keys(errs).length) return;

    const entries = files.map((file) => ({
      file,
      title: single ? values.title.trim() : keptTitles[fileKey(file)] || titleFromName(file.name) || file.name,
      sent: resumable[fileKey(file)]?.offset ?? 0,
    }));
    // Fields kept from an earlier attempt may hold flags this user can no longer set.
    const fields = canPublish ? { ...values } : { ...values, isFeatured: false, showInPortfolio: false };
    setBatch(enqueue(userId, entries, fields, single ? poster : null));
  }

  const resumeNote = (f: File) => {
    const info = resumable[fileKey(f)];
    if (!info) return null;
    const pct = f.size ? Math.floor((info.offset / f.size) * 100) : 0;
    return `An earlier upload of ${f.name} was interrupted at ${pct}% (${formatBytes(info.offset)} of ${formatBytes(f.size)}): it continues from there.`;
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Upload New Media"
      description="Images and videos (JPG, PNG, GIF, MP4, MOV, AVI, MKV), up to 2500MB."
      size="lg"
      footer={
        uploading ? (
          <UploadBatchFooter items={items} finished={finished} onClose={onClose} />
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
              id="upload-file"
              ref={fileInput}
              name="file"
              type="file"
              multiple
              accept={ACCEPT_ATTR}
              aria-invalid={errors.file ? true : undefined}
              aria-describedby="upload-file-help"
              onChange={(e) => chooseFiles([...(e.target.files ?? [])])}
              className="block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-muted file:px-3 file:py-2 file:text-sm file:font-medium file:text-fg"
            />
            <div id="upload-file-help" className="space-y-1">
              {!errors.file &&
                files.map((f) => (
                  <p key={fileKey(f)} className="text-xs text-fg-muted">{`${f.name} · ${formatBytes(f.size)}`}</p>
                ))}
              {files.map((f) => {
                const note = resumeNote(f);
                return note ? (
                  <p key={`resume-${fileKey(f)}`} className="rounded-md bg-muted px-2 py-1 text-xs text-fg" data-testid="upload-resume-note">
                    {note}
                  </p>
                ) : null;
              })}
              {!files.length && <p className="text-xs text-fg-muted">Choose one file or several, or drop files and folders anywhere on the page. Interrupted uploads continue where they stopped.</p>}
            </div>
            {errors.file && <p className="text-sm text-danger">{errors.file}</p>}
          </div>
          {single && (
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
          )}
          {single ? (
            <Field label="Title" name="title" value={values.title} onChange={(e) => set('title', e.target.value)} error={errors.title} maxLength={200} />
          ) : (
            <p className="text-sm text-fg-muted">{`${files.length} files: each is titled from its file name; the settings below apply to all of them.`}</p>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            <Select
              label="Project Stage"
              value={values.projectStage}
              onChange={(e) => set('projectStage', e.target.value)}
              options={[{ value: '', label: 'No stage' }, ...stageOptions()]}
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
          {canPublish && (
            <>
              <Switch label="Featured" description="Shown on the home page" checked={values.isFeatured} onChange={(v) => set('isFeatured', v)} />
              <Switch label="Show in Portfolio" checked={values.showInPortfolio} onChange={(v) => set('showInPortfolio', v)} />
            </>
          )}
        </fieldset>
      </form>
    </Dialog>
  );
}
