// What staff typed for a file (title, notes, tags, client, …) kept in localStorage beside its
// resumable upload, under the same identity tus-js-client gives the file (name, size,
// last-modified), so choosing the file again after a reload brings the fields back. Keyed by
// the staff member too (issue 40): another person signing in on the same browser and choosing
// the same file never sees them, and logout removes them all (src/shared/kept-on-device.ts).
import { KEPT_FIELDS_PREFIX as PREFIX } from '../../../shared/kept-on-device.ts';

/** What the upload dialog asks for one file (the fields of POST /api/media as typed). */
export interface UploadFields {
  title: string;
  projectStage: string;
  notes: string;
  clientId: string;
  tags: string;
  isFeatured: boolean;
  showInPortfolio: boolean;
}

/** The form before anything is typed. */
export const EMPTY_FIELDS: UploadFields = { title: '', projectStage: '', notes: '', clientId: '', tags: '', isFeatured: false, showInPortfolio: false };

/** The fields a batch gives every one of its files (each file has its own title). */
const SHARED_FIELDS = ['projectStage', 'notes', 'clientId', 'tags', 'isFeatured', 'showInPortfolio'] as const;

/**
 * `form` with the shared fields kept for a file of an interrupted batch, when nothing was typed
 * in them yet (they may have been since the file was chosen: that wins).
 */
export function withSharedFields(form: UploadFields, kept: UploadFields): UploadFields {
  return SHARED_FIELDS.some((k) => form[k] !== EMPTY_FIELDS[k]) ? form : { ...kept, title: form.title };
}

/** Unfinished uploads expire on the server after 24 h (UPLOAD_EXPIRY_SECONDS): so do their fields. */
const KEEP_MS = 24 * 60 * 60 * 1000;

/** `owner` is the signed-in staff member's id. */
const keyOf = (owner: string, f: File) => `${PREFIX}${owner}::${f.name}::${f.size}::${f.lastModified}`;

export function rememberFields(owner: string, file: File, fields: UploadFields): void {
  try {
    localStorage.setItem(keyOf(owner, file), JSON.stringify({ at: Date.now(), fields }));
    // Entries of uploads that were never finished nor cancelled would otherwise pile up.
    for (const k of Object.keys(localStorage)) {
      if (!k.startsWith(PREFIX)) continue;
      const at = Number((JSON.parse(localStorage.getItem(k) ?? '{}') as { at?: unknown }).at);
      if (!(Date.now() - at < KEEP_MS)) localStorage.removeItem(k);
    }
  } catch {
    // Storage full or blocked: the upload itself still resumes, only without its fields.
  }
}

export function keptFields(owner: string, file: File): UploadFields | null {
  try {
    const raw = localStorage.getItem(keyOf(owner, file));
    if (!raw) return null;
    const { at, fields } = JSON.parse(raw) as { at: number; fields: UploadFields };
    if (!(Date.now() - at < KEEP_MS) || typeof fields?.title !== 'string') return null;
    return fields;
  } catch {
    return null;
  }
}

/**
 * Forgets what was kept for the file; with `keptBefore`, only what was kept before that moment
 * (a check started when the file was chosen must not erase the fields of an upload started since).
 */
export function forgetFields(owner: string, file: File, keptBefore?: number): void {
  try {
    const key = keyOf(owner, file);
    if (keptBefore != null && !(Number((JSON.parse(localStorage.getItem(key) ?? '{}') as { at?: unknown }).at) < keptBefore)) return;
    localStorage.removeItem(key);
  } catch {
    /* nothing kept */
  }
}
