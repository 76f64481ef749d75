// The admin area's upload queue: resumable uploads (../media/resumable.ts) that outlive the
// dialog that started them. Module state, so every island of the page (the media manager's
// dialog, the tray in AdminLayout) shares it, and with the client router it survives page
// changes within /admin. The UploadTray island shows it; MediaManager reloads on $finished.
// A file becomes a new item (POST /api/media) or the next version of one (issue 16).
import { atom, computed } from 'nanostores';
import type { AdminMedia } from '../../../shared/schemas/media.ts';
import type { MediaVersion } from '../../../shared/schemas/review.ts';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import { putMediaWithPoster } from '../media/media-api.ts';
import { ResumableUpload, type Phase } from '../media/resumable.ts';
import { EMPTY_FIELDS, forgetFields, rememberFields, type UploadFields } from './kept-fields.ts';

export type { UploadFields };

/** Files sent at the same time (the server allows 5 unfinished uploads per user). */
export const PARALLEL = 3;

export type ItemPhase = 'waiting' | Phase | 'finishing' | 'done' | 'failed';

/** The media item a file is a new version of. */
export interface VersionOf {
  id: number;
  title: string;
}

/** The proofing gallery (and set) a file joins as a new image (issue 42). */
export interface GalleryOf {
  id: number;
  title: string;
  setId: number | null;
}

export interface UploadItem {
  id: number;
  /** Which Upload click queued it: the dialog shows its own batch. */
  batch: number;
  file: File;
  /** A new item's fields; a new version keeps its item's, so these go unused then. */
  fields: UploadFields;
  /** A new item's: the staff member who queued it, under whom its fields are kept (kept-fields.ts). */
  owner?: string;
  poster: File | null;
  /** Set when the file is finished as the next version of this item rather than as a new item. */
  versionOf?: VersionOf;
  /** Set when the file becomes a new image of this gallery (titled from its name). */
  galleryOf?: GalleryOf;
  sent: number;
  total: number;
  phase: ItemPhase;
  /** Bytes per second over the last few seconds, when known. */
  speed: number | null;
  error?: string;
  /** Set once every byte is on the server, so Retry after a failed finish only finishes. */
  uploadId?: string;
}

export const $uploads = atom<UploadItem[]>([]);
/** Counts uploads that became media items; the media list reloads when it changes. */
export const $finished = atom(0);
export const isRunning = (it: UploadItem) => it.phase !== 'done' && it.phase !== 'failed';
export const $running = computed($uploads, (list) => list.filter(isRunning).length);

export const fileKey = (f: File) => `${f.name}\u0000${f.size}\u0000${f.lastModified}`;

const handles = new Map<number, ResumableUpload>();
const samples = new Map<number, { t: number; bytes: number }[]>();
let seq = 0;
let batches = 0;

function patch(id: number, p: Partial<UploadItem>) {
  $uploads.set($uploads.get().map((it) => (it.id === id ? { ...it, ...p } : it)));
}
const get = (id: number) => $uploads.get().find((it) => it.id === id);

function track(id: number, sent: number, total: number) {
  const now = performance.now();
  const list = samples.get(id) ?? [];
  // A resume may start below the last figure (the server kept less than was sent): restart the window.
  if (list.length && sent < list[list.length - 1]!.bytes) list.length = 0;
  list.push({ t: now, bytes: sent });
  while (list.length > 2 && now - list[0]!.t > 5000) list.shift();
  samples.set(id, list);
  const first = list[0]!;
  const speed = now - first.t > 400 ? ((sent - first.bytes) * 1000) / (now - first.t) : null;
  patch(id, { sent, total, speed });
}

/** Two uploads of one file would write to the same server upload: the running one goes on, and the second is refused with this. */
export function alreadyUploadingError(f: File): string | null {
  const busy = $uploads.get().some((it) => isRunning(it) && fileKey(it.file) === fileKey(f));
  return busy ? `${f.name} is already uploading (see the upload tray at the bottom right)` : null;
}

function add(entries: Pick<UploadItem, 'file' | 'fields' | 'owner' | 'poster' | 'sent' | 'versionOf' | 'galleryOf'>[]): number {
  const batch = ++batches;
  const added: UploadItem[] = entries.map((e) => ({ ...e, id: ++seq, batch, total: e.file.size, phase: 'waiting', speed: null }));
  $uploads.set([...$uploads.get(), ...added]);
  pump();
  return batch;
}

/** Queues `owner`'s files as new items with their fields (one title each) and starts them; returns the batch number. */
export function enqueue(owner: string, entries: { file: File; title: string; sent?: number }[], fields: UploadFields, poster: File | null): number {
  for (const { file, title } of entries) rememberFields(owner, file, { ...fields, title });
  return add(entries.map(({ file, title, sent }) => ({ file, fields: { ...fields, title }, owner, poster, sent: sent ?? 0 })));
}

/**
 * Queues a file as the next version of `of` and starts it; returns the batch number. Nothing is
 * kept for it in kept-fields.ts: the dialog asks for no fields, and the same file chosen again
 * in the upload dialog must not come back as this item's title.
 */
export function enqueueVersion(file: File, of: VersionOf): number {
  return add([{ file, fields: EMPTY_FIELDS, poster: null, sent: 0, versionOf: of }]);
}

/**
 * Queues a batch (hundreds of stills at once) as new images of a gallery; each is titled from
 * its file name by the server. Returns the batch number.
 */
export function enqueueIntoGallery(files: File[], of: GalleryOf): number {
  return add(files.map((file) => ({ file, fields: EMPTY_FIELDS, poster: null, sent: 0, galleryOf: of })));
}

function pump() {
  const list = $uploads.get();
  let slots = PARALLEL - list.filter((it) => handles.has(it.id) || it.phase === 'finishing').length;
  for (const it of list) {
    if (slots <= 0) break;
    if (it.phase === 'waiting' && !handles.has(it.id)) {
      slots--;
      void run(it.id);
    }
  }
}

async function run(id: number) {
  const item = get(id);
  if (!item) return;
  try {
    let uploadId = item.uploadId;
    if (!uploadId) {
      const upload = await ResumableUpload.create(item.file, {
        onProgress: (sent, total) => track(id, sent, total),
        onPhase: (phase) => patch(id, { phase, ...(phase === 'uploading' ? {} : { speed: null }) }),
      });
      handles.set(id, upload);
      patch(id, { phase: 'uploading', error: undefined });
      await upload.start();
      uploadId = await upload.done;
      handles.delete(id);
    }
    if (!get(id)) return;
    patch(id, { phase: 'finishing', uploadId, sent: item.file.size, total: item.file.size, speed: null, error: undefined });
    const said = await finish(item, uploadId);
    patch(id, { phase: 'done' });
    $finished.set($finished.get() + 1);
    // A gallery batch says so once, when its last file is in, not once per file.
    if (!item.galleryOf) toast(said);
    else if (!$uploads.get().some((it) => it.batch === item.batch && isRunning(it))) {
      const done = $uploads.get().filter((it) => it.batch === item.batch && it.phase === 'done').length;
      toast({ title: 'Images added', description: `${done} image${done === 1 ? '' : 's'} added to “${item.galleryOf.title}”.` });
    }
  } catch (err) {
    // Cancelled: the item is gone already and cancel() said so.
    if (!get(id)) return;
    const message = errorMessage(err, 'Upload failed');
    patch(id, { phase: 'failed', error: message, speed: null });
    toast({ title: 'Upload failed', description: message || 'Upload failed', variant: 'destructive' });
  } finally {
    handles.delete(id);
    samples.delete(id);
    pump();
  }
}

/** Turns the bytes on the server into a new item or version; returns the toast that says so. */
async function finish(item: UploadItem, uploadId: string): Promise<{ title: string; description: string }> {
  const gallery = item.galleryOf;
  if (gallery) {
    await apiJson<AdminMedia>('POST', `/api/galleries/${gallery.id}/uploads`, { uploadId, setId: gallery.setId });
    return { title: 'Image added', description: `${item.file.name} is in “${gallery.title}”.` };
  }
  const of = item.versionOf;
  if (of) {
    const { version } = await apiJson<{ version: MediaVersion }>('POST', `/api/media/${of.id}/versions`, { uploadId });
    return { title: `Version v${version.number} uploaded`, description: `${of.title} is now at v${version.number}; its approval is back to In review.` };
  }
  const f = item.fields;
  const created = await apiJson<AdminMedia>('POST', '/api/media', {
    uploadId,
    title: f.title,
    projectStage: f.projectStage || null,
    notes: f.notes,
    clientId: f.clientId ? Number(f.clientId) : null,
    tags: f.tags,
    isFeatured: f.isFeatured,
    showInPortfolio: f.showInPortfolio,
  });
  if (item.poster && created.type === 'video') await putMediaWithPoster(created.id, {}, item.poster);
  if (item.owner) forgetFields(item.owner, item.file);
  return { title: 'Media uploaded', description: `"${f.title}" has been uploaded.` };
}

export function pause(id: number) {
  handles.get(id)?.pause();
}

export function resume(id: number) {
  handles.get(id)?.resume();
}

/** Tries a failed item again: the bytes continue from the server's offset, or only the finish is repeated. */
export function retry(id: number) {
  const it = get(id);
  if (!it || it.phase !== 'failed') return;
  patch(id, { phase: 'waiting', error: undefined });
  pump();
}

/** Removes finished and failed items from the list. */
export function dismiss(ids: number[]) {
  $uploads.set($uploads.get().filter((it) => !ids.includes(it.id) || isRunning(it)));
}

/** Stops the items and deletes what the server holds of them (tus termination). */
export async function cancel(ids: number[]) {
  // A file being finished is on the server already and becomes an item whatever happens here.
  const targets = $uploads.get().filter((it) => ids.includes(it.id) && it.phase !== 'done' && it.phase !== 'finishing');
  if (!targets.length) return;
  $uploads.set($uploads.get().filter((it) => !targets.includes(it)));
  const running = targets.map((it) => handles.get(it.id)).filter((h): h is ResumableUpload => !!h);
  for (const it of targets) {
    handles.delete(it.id);
    if (it.owner) forgetFields(it.owner, it.file);
  }
  await Promise.all(running.map((h) => h.cancel()));
  toast({ title: 'Upload cancelled', description: 'Nothing was saved.' });
  pump();
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s left`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min left`;
  const h = Math.floor(seconds / 3600);
  return `${h} h ${Math.round((seconds - h * 3600) / 60)} min left`;
}
