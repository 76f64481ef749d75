import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useClearFixedErrors } from '../../ui/useLiveErrors.ts';
import { PROJECT_STAGES, type AdminMedia } from '../../../shared/schemas/media.ts';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { Textarea } from '../../ui/Textarea.tsx';
import { formatBytes, stageLabel } from './format.ts';
import { putMediaWithPoster, type ClientOption } from './media-api.ts';
import { ACCEPT_ATTR, checkPosterFile, checkUploadFile } from './upload.ts';
import { CONNECTION_LOST, ResumableUpload, findResumable, type Phase, type ResumeInfo } from './resumable.ts';

const EMPTY = { title: '', projectStage: '', notes: '', clientId: '', tags: '', isFeatured: false, showInPortfolio: false };
/** Files sent at the same time (the server allows 5 unfinished uploads per user). */
const PARALLEL = 3;

type ItemPhase = 'waiting' | Phase | 'finishing' | 'done' | 'failed';

interface Item {
  key: string;
  file: File;
  title: string;
  sent: number;
  total: number;
  phase: ItemPhase;
  /** Bytes per second over the last few seconds, when known. */
  speed: number | null;
  error?: string;
}

const titleFromName = (name: string) => name.replace(/\.[^.]+$/, '').replace(/[-_]+/g, ' ').trim();
const fileKey = (f: File) => `${f.name}\u0000${f.size}\u0000${f.lastModified}`;

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s left`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min left`;
  const h = Math.floor(seconds / 3600);
  return `${h} h ${Math.round((seconds - h * 3600) / 60)} min left`;
}

/**
 * 'Upload New Media' (001 §2, §5): checks type and size first, then sends each file as a
 * resumable upload (src/islands/admin/media/resumable.ts) with its own progress, speed, time
 * left and pause/resume, and finishes it with POST /api/media { uploadId, ...fields }.
 */
export function UploadDialog({ open, onClose, clients, onUploaded }: { open: boolean; onClose: () => void; clients: ClientOption[]; onUploaded: () => void }) {
  const [values, setValues] = useState(EMPTY);
  const [files, setFiles] = useState<File[]>([]);
  const [poster, setPoster] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [resumable, setResumable] = useState<Record<string, ResumeInfo>>({});
  const [items, setItems] = useState<Item[] | null>(null);
  const handles = useRef(new Map<string, ResumableUpload>());
  const samples = useRef(new Map<string, { t: number; bytes: number }[]>());
  const cancelled = useRef(false);
  const uploading = items !== null;
  const single = files.length <= 1;

  useEffect(() => {
    if (!open) {
      setValues(EMPTY);
      setFiles([]);
      setPoster(null);
      setErrors({});
      setResumable({});
      setItems(null);
    }
  }, [open]);

  const set = <K extends keyof typeof EMPTY>(k: K, v: (typeof EMPTY)[K]) => setValues((s) => ({ ...s, [k]: v }));
  useClearFixedErrors({ title: values.title }, (v): Record<string, string> => (v.title.trim() ? {} : { title: 'Title is required' }), setErrors);
  const patchItem = (key: string, patch: Partial<Item>) => setItems((list) => list?.map((it) => (it.key === key ? { ...it, ...patch } : it)) ?? list);

  function chooseFiles(list: File[]) {
    setFiles(list);
    const problem = list.map((f) => checkUploadFile(f)).find(Boolean) ?? '';
    setErrors((e) => ({ ...e, file: problem }));
    // A refused file names nothing that will be uploaded, so it does not fill the title.
    if (list.length === 1 && !problem && !values.title.trim()) set('title', titleFromName(list[0]!.name));
    setResumable({});
    // An interrupted upload of the same file (same name, size, date) continues where it stopped.
    for (const f of list) {
      if (checkUploadFile(f)) continue;
      findResumable(f)
        .then((info) => info && setResumable((r) => ({ ...r, [fileKey(f)]: info })))
        .catch(() => undefined);
    }
  }

  function track(key: string, sent: number, total: number) {
    const now = performance.now();
    const list = samples.current.get(key) ?? [];
    // A resume may start below the last figure (the server kept less than was sent): restart the window.
    if (list.length && sent < list[list.length - 1]!.bytes) list.length = 0;
    list.push({ t: now, bytes: sent });
    while (list.length > 2 && now - list[0]!.t > 5000) list.shift();
    samples.current.set(key, list);
    const first = list[0]!;
    const speed = now - first.t > 400 ? ((sent - first.bytes) * 1000) / (now - first.t) : null;
    patchItem(key, { sent, total, speed });
  }

  async function runOne(item: Item, fields: typeof EMPTY, withPoster: File | null): Promise<boolean> {
    const upload = new ResumableUpload(item.file, {
      onProgress: (sent, total) => track(item.key, sent, total),
      onPhase: (phase) => patchItem(item.key, { phase, ...(phase === 'uploading' ? {} : { speed: null }) }),
    });
    handles.current.set(item.key, upload);
    patchItem(item.key, { phase: 'uploading' });
    try {
      await upload.start();
      const uploadId = await upload.done;
      patchItem(item.key, { phase: 'finishing', sent: item.file.size, total: item.file.size, speed: null });
      const created = await apiJson<AdminMedia>('POST', '/api/media', {
        uploadId,
        title: item.title,
        projectStage: fields.projectStage || null,
        notes: fields.notes,
        clientId: fields.clientId ? Number(fields.clientId) : null,
        tags: fields.tags,
        isFeatured: fields.isFeatured,
        showInPortfolio: fields.showInPortfolio,
      });
      if (withPoster && created.type === 'video') await putMediaWithPoster(created.id, {}, withPoster);
      patchItem(item.key, { phase: 'done' });
      toast({ title: 'Media uploaded', description: `"${item.title}" has been uploaded.` });
      return true;
    } catch (err) {
      if (cancelled.current) return false;
      const message = errorMessage(err, 'Upload failed');
      patchItem(item.key, { phase: 'failed', error: message, speed: null });
      toast({ title: 'Upload failed', description: message || 'Upload failed', variant: 'destructive' });
      return false;
    } finally {
      handles.current.delete(item.key);
      samples.current.delete(item.key);
    }
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!files.length) {
      setErrors({ file: 'Please select a file', ...(values.title.trim() || !single ? {} : { title: 'Title is required' }) });
      toast({ title: 'No file selected', description: 'Please select a file to upload.', variant: 'destructive' });
      return;
    }
    const errs: Record<string, string> = {};
    const fileError = files.map((f) => checkUploadFile(f)).find(Boolean);
    if (fileError) errs.file = fileError;
    if (single && !values.title.trim()) errs.title = 'Title is required';
    if (poster && single) {
      const posterError = checkPosterFile(poster);
      if (posterError) errs.posterFile = posterError;
    }
    setErrors(errs);
    if (Object.keys(errs).length) return;

    const fields = { ...values };
    const queue: Item[] = files.map((file) => ({
      key: fileKey(file),
      file,
      title: single ? values.title.trim() : titleFromName(file.name) || file.name,
      sent: resumable[fileKey(file)]?.offset ?? 0,
      total: file.size,
      phase: 'waiting',
      speed: null,
    }));
    cancelled.current = false;
    setItems(queue);
    const withPoster = single ? poster : null;

    let next = 0;
    let ok = 0;
    const worker = async () => {
      while (next < queue.length && !cancelled.current) {
        const item = queue[next++]!;
        if (await runOne(item, fields, withPoster)) ok++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, queue.length) }, worker));
    if (cancelled.current) return;
    if (ok) onUploaded();
    if (ok === queue.length) {
      await new Promise((r) => setTimeout(r, 400));
      onClose();
    }
  }

  async function cancelAll() {
    cancelled.current = true;
    const running = [...handles.current.values()];
    setItems(null);
    await Promise.all(running.map((h) => h.cancel()));
    toast({ title: 'Upload cancelled', description: 'Nothing was saved.' });
  }

  const finished = items?.every((it) => it.phase === 'done' || it.phase === 'failed') ?? false;
  const resumeNote = (f: File) => {
    const info = resumable[fileKey(f)];
    if (!info) return null;
    const pct = f.size ? Math.floor((info.offset / f.size) * 100) : 0;
    return `An earlier upload of ${f.name} was interrupted at ${pct}% (${formatBytes(info.offset)} of ${formatBytes(f.size)}): it continues from there.`;
  };

  return (
    <Dialog
      open={open}
      onClose={() => (uploading && !finished ? undefined : onClose())}
      title="Upload New Media"
      description="Images and videos (JPG, PNG, GIF, MP4, MOV, AVI, MKV), up to 2500MB."
      size="lg"
      footer={
        items ? (
          <div className="flex w-full flex-col gap-3 sm:flex-row sm:items-end">
            <ul className="min-w-0 flex-1 space-y-3" aria-label="Uploads">
              {items.map((it) => (
                <UploadRow
                  key={it.key}
                  item={it}
                  labelled={items.length > 1}
                  onPause={() => handles.current.get(it.key)?.pause()}
                  onResume={() => handles.current.get(it.key)?.resume()}
                />
              ))}
            </ul>
            {finished ? (
              <Button variant="outline" onClick={onClose}>
                Close
              </Button>
            ) : (
              <Button variant="outline" onClick={() => void cancelAll()}>
                Cancel Upload
              </Button>
            )}
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
              id="upload-file"
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
              {!files.length && <p className="text-xs text-fg-muted">Choose one file or several. Interrupted uploads continue where they stopped.</p>}
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

function UploadRow({ item, labelled, onPause, onResume }: { item: Item; labelled: boolean; onPause: () => void; onResume: () => void }) {
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
        {labelled && <p className="truncate text-sm font-medium">{item.file.name}</p>}
        <div
          role="progressbar"
          aria-label={labelled ? `Upload progress: ${item.file.name}` : 'Upload progress'}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
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
        {item.error && <p className="text-xs text-danger">{item.error}</p>}
      </div>
      {canPause && (
        <Button variant="ghost" size="sm" onClick={onPause} aria-label={`Pause upload of ${item.file.name}`}>
          Pause
        </Button>
      )}
      {item.phase === 'paused' && (
        <Button variant="ghost" size="sm" onClick={onResume} aria-label={`Resume upload of ${item.file.name}`}>
          Resume
        </Button>
      )}
    </li>
  );
}
