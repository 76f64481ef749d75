// Write side of the media library: create from an upload, update, delete, client links.
// Files are written first and the row last, so a row never points to a missing file; on
// any failure the item's folder is removed, so a failed upload leaves nothing behind.
import { enqueueClientPreviews } from '../sharing/client-watermark.ts';
import fs from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import type { z, ZodType } from 'zod';
import { db } from '../../db/index.ts';
import { clients, media, mediaClients, mediaVersions } from '../../db/schema.ts';
import { HttpError, describeZodError, readJson } from '../http.ts';
import { bumpSiteVersion } from '../site-version.ts';
import { config } from '../config.ts';
import {
  mediaUpdateFormSchema,
  mediaUpdateSchema,
  mediaUploadFieldsSchema,
  type AdminMedia,
  type MediaUpdate,
  type MediaUploadFields,
  type Playback,
} from '../../shared/schemas/media.ts';
import type { DetectedType } from './detect.ts';
import { getAdminMedia } from './admin-queries.ts';
import { makeImageDerivatives, makePosterDerivatives, makeVideoDerivatives, UnreadableMediaError } from './derivatives.ts';
import { formatBytes, receiveMultipart, type FileFieldSpec } from './multipart.ts';
import { assertMayPublish, type Uploader } from './publish-rule.ts';
import { mediaFilePath, mediaFolder, mediaUrl, newStorageKey, originalVariant, tempFilePath, VARIANTS } from '../storage/paths.ts';
import { getMediaById } from './queries.ts';
import { sweepOnce } from './sweep.ts';
import { assertDiskSpaceFor, DISK_FULL_MESSAGE, isDiskFull } from '../storage/disk-space.ts';
import { storage } from '../storage/index.ts';
import { browserPlayable, probeUpload } from './probe.ts';
import { extractRawPreview, identifyRaw, RAW_NO_PREVIEW, RAW_UNSUPPORTED } from './raw.ts';
import { currentVersionId, enqueueProcessing, reprocess } from '../jobs/queue.ts';
import { playbackFields } from './playback.ts';
import { applyTitleSlug } from './slugs.ts';
import { recordEvent } from '../notifications/index.ts';

export const POSTER_MAX_BYTES = 50 * 1024 * 1024;
const POSTER_VARIANTS = [VARIANTS.posterJpeg, VARIANTS.posterWebp, VARIANTS.thumbJpeg, VARIANTS.thumbWebp];

function fileSpec(storageKey: string): FileFieldSpec {
  return {
    maxBytes: config.MEDIA_MAX_BYTES,
    accept: () => true,
    tooLarge: `The file is too large: the limit is ${formatBytes(config.MEDIA_MAX_BYTES)}.`,
    unsupported: 'Unsupported file type: upload a JPG, PNG, GIF or WebP image, a RAW still (CR2, CR3, NEF, ARW, RAF, DNG), or an MP4, MOV, AVI, MKV or WebM video.',
    tempPath: () => tempFilePath(storageKey),
  };
}

function posterSpec(storageKey: string): FileFieldSpec {
  return {
    maxBytes: POSTER_MAX_BYTES,
    accept: (t) => t.kind === 'image' && !t.raw,
    tooLarge: `The poster image is too large: the limit is ${formatBytes(POSTER_MAX_BYTES)}.`,
    unsupported: 'Unsupported poster type: use a JPG, PNG, GIF or WebP image.',
    tempPath: () => tempFilePath(storageKey),
  };
}

/** Multipart text fields through a zod schema; 400 naming the field. */
function parseFields<T extends ZodType>(schema: T, fields: Record<string, string>): z.infer<T> {
  const r = schema.safeParse(fields);
  if (!r.success) throw new HttpError(400, describeZodError(r.error));
  return r.data;
}

async function assertClientExists(clientId: number | null | undefined): Promise<void> {
  if (clientId == null) return;
  const [row] = await db.select({ id: clients.id }).from(clients).where(eq(clients.id, clientId)).limit(1);
  if (!row) throw new HttpError(400, 'clientId: Unknown client');
}

export function asHttp(e: unknown): unknown {
  if (isDiskFull(e)) {
    console.error(`Upload refused, disk full: ${(e as Error).message}`);
    return new HttpError(507, DISK_FULL_MESSAGE);
  }
  return e instanceof UnreadableMediaError ? new HttpError(415, e.message) : e;
}

/** A stored upload, already typed by its first bytes, waiting to become a media item. */
export interface IncomingOriginal {
  /** Where the bytes are now: a scratch file on the media file system (renamed, never copied). */
  path: string;
  size: number;
  type: DetectedType;
  /** The uploader's file name, kept only as metadata. */
  filename: string;
}

/**
 * Turns a received original into a media item: moves it into the item's folder, makes the
 * derivatives, then inserts the row. One path for every way a file arrives (multipart today,
 * resumable uploads next), so they share validation. On any failure the item's folder is
 * removed and the error is answered as HTTP (unreadable media: 415).
 */
export async function ingestOriginal(
  storageKey: string,
  file: IncomingOriginal,
  posterPath: string | null,
  fields: MediaUploadFields,
  uploadedBy: string,
  /** The gallery it is uploaded into (issue 53): it lives there, not in the library. */
  galleryId: number | null = null,
): Promise<AdminMedia> {
  const folder = mediaFolder(storageKey);
  try {
    await fs.mkdir(folder, { recursive: true });
    await assertClientExists(fields.clientId);
    const columns = await storeOriginal(storageKey, file, posterPath);
    // Stored before the row is written: a row never points to a missing file.
    await storage.publishItem(storageKey);

    const id = await db.transaction(async (tx) => {
      // The media_ai_version trigger makes this row's v1 from the same columns.
      const [row] = await tx
        .insert(media)
        .values({
          title: fields.title,
          ...columns,
          isFeatured: fields.isFeatured,
          showInPortfolio: fields.showInPortfolio,
          tags: fields.tags,
          projectStage: fields.projectStage,
          notes: fields.notes,
          clientId: fields.clientId,
          uploadedBy,
          galleryId,
        })
        .returning({ id: media.id });
      await applyTitleSlug(tx, { id: row!.id, title: fields.title, type: file.type.kind, slug: null });
      // The chosen client is also assigned, so it sees the item in its portal.
      if (fields.clientId != null) {
        await tx.insert(mediaClients).values({ mediaId: row!.id, clientId: fields.clientId }).onConflictDoNothing();
        await enqueueClientPreviews(tx, fields.clientId, row!.id);
      }
      if (file.type.kind === 'video') await enqueueProcessing(tx, row!.id, (await currentVersionId(tx, row!.id))!);
      if (fields.isFeatured || fields.showInPortfolio) await bumpSiteVersion(tx);
      return row!.id;
    });
    if (fields.clientId != null) await recordEvent({ kind: 'assigned', mediaId: id, clientId: fields.clientId });
    return (await getAdminMedia(id))!;
  } catch (e) {
    await storage.removeItem(storageKey).catch(() => {});
    await fs.rm(folder, { recursive: true, force: true });
    if (posterPath) await fs.rm(posterPath, { force: true });
    throw asHttp(e);
  }
}

/** The file columns a media row and its versions share. */
export type OriginalColumns = Pick<
  typeof media.$inferInsert,
  | 'type' | 'storageKey' | 'url' | 'posterUrl' | 'thumbnailUrl' | 'thumbnailWebpUrl' | 'webpUrl' | 'filename' | 'fileSize' | 'mimeType'
  | 'width' | 'height' | 'durationSeconds' | 'processingStatus' | 'probe' | 'originalPlayable'
>;

/**
 * Moves a received original into `storageKey`'s folder (created by the caller) and makes its
 * derivatives. Probed before anything else is made, so a video without a picture is refused
 * (415) early. The caller removes the folder when anything fails.
 */
export async function storeOriginal(storageKey: string, incoming: IncomingOriginal, posterPath: string | null): Promise<OriginalColumns> {
  // A RAW candidate is named by exiftool first (its type decides the original's extension).
  const raw = incoming.type.raw ? await identifyRaw(incoming.path) : null;
  if (incoming.type.raw && !raw) throw new UnreadableMediaError(RAW_UNSUPPORTED);
  const file = raw ? { ...incoming, type: raw.type } : incoming;
  const variant = originalVariant(file.type.ext);
  const original = mediaFilePath(storageKey, variant);
  await fs.rename(file.path, original);
  const input = { path: original, mimeType: file.type.mimeType };
  const probe = file.type.kind === 'video' ? await probeUpload(input) : null;
  // A RAW is shown from its embedded JPEG (media/raw.ts); the original stays as uploaded.
  let source = original;
  if (raw) {
    source = mediaFilePath(storageKey, VARIANTS.rawPreview);
    await extractRawPreview(original, raw, source).catch((e: Error) => {
      throw new UnreadableMediaError(e.message === RAW_NO_PREVIEW ? RAW_NO_PREVIEW : 'The RAW file could not be read. Is the file damaged?');
    });
  }
  const facts =
    file.type.kind === 'image'
      ? {
          ...(await makeImageDerivatives(storageKey, source, raw ? 'image/jpeg' : file.type.mimeType).catch((e: unknown) => {
            // The RAW is fine as a file; it is its embedded preview that cannot be shown.
            throw raw && e instanceof UnreadableMediaError && !/too large/.test(e.message) ? new UnreadableMediaError(RAW_NO_PREVIEW) : e;
          })),
          posterUrl: null,
          durationSeconds: null,
        }
      : { ...(await makeVideoDerivatives(storageKey, input, posterPath)), webpUrl: null };
  if (posterPath) await fs.rm(posterPath, { force: true });
  return {
    type: file.type.kind,
    storageKey,
    url: mediaUrl(storageKey, variant),
    posterUrl: facts.posterUrl,
    thumbnailUrl: facts.thumbnailUrl,
    thumbnailWebpUrl: facts.thumbnailWebpUrl,
    webpUrl: facts.webpUrl,
    filename: file.filename,
    fileSize: file.size,
    mimeType: file.type.mimeType,
    width: probe?.width ?? facts.width,
    height: probe?.height ?? facts.height,
    durationSeconds: probe?.durationSeconds != null ? Math.round(probe.durationSeconds) : facts.durationSeconds,
    ...(file.type.kind === 'video'
      ? {
          processingStatus: 'queued' as const,
          probe: probe as Record<string, unknown> | null,
          // Without ffprobe we cannot tell; MP4 and WebM usually play.
          originalPlayable: probe ? browserPlayable(probe, file.type.mimeType) : ['video/mp4', 'video/webm'].includes(file.type.mimeType),
        }
      : { processingStatus: null, probe: null, originalPlayable: false }),
  };
}

/** POST /api/media (multipart): streams the body into the item's folder, then ingests it. */
export async function createMediaFromUpload(request: Request, uploader: Uploader): Promise<AdminMedia> {
  sweepOnce();
  // Before a byte is read: the whole request (Content-Length) plus the margin must fit.
  // A chunked request declares nothing; it is still bounded by the margin and ENOSPC handling.
  await assertDiskSpaceFor(Number(request.headers.get('content-length')) || 0);
  const storageKey = newStorageKey();
  const folder = mediaFolder(storageKey);
  await fs.mkdir(folder, { recursive: true });
  let form;
  let fields: MediaUploadFields;
  try {
    form = await receiveMultipart(request, { file: fileSpec(storageKey), posterFile: posterSpec(storageKey) });
    if (!form.files.file) throw new HttpError(400, 'Please select a file');
    fields = parseFields(mediaUploadFieldsSchema, form.fields);
    assertMayPublish(fields, uploader);
  } catch (e) {
    await fs.rm(folder, { recursive: true, force: true });
    throw asHttp(e);
  }
  return ingestOriginal(storageKey, form.files.file, form.files.posterFile?.path ?? null, fields, uploader.id);
}

/** PUT /api/media/{id}: JSON, or multipart when a new poster comes with it. Only given fields change. */
export async function updateMedia(id: number, request: Request): Promise<AdminMedia> {
  const row = await getMediaById(id);
  if (!row) throw new HttpError(404, 'Media not found');

  let changes: MediaUpdate;
  let posterPath: string | null = null;
  if (/^multipart\/form-data/i.test(request.headers.get('content-type') ?? '')) {
    await assertDiskSpaceFor(Number(request.headers.get('content-length')) || 0);
    // The poster is received next to the item's files; with S3 that folder exists only while in use.
    await fs.mkdir(mediaFolder(row.storageKey), { recursive: true });
    const form = await receiveMultipart(request, { posterFile: posterSpec(row.storageKey) });
    posterPath = form.files.posterFile?.path ?? null;
    try {
      const { tags, ...rest } = parseFields(mediaUpdateFormSchema, form.fields);
      changes = { ...rest, ...(tags !== undefined ? { tags } : {}) };
      if (posterPath && row.type !== 'video') throw new HttpError(400, 'posterFile: only a video can have a poster');
    } catch (e) {
      if (posterPath) await fs.rm(posterPath, { force: true });
      throw e;
    }
  } else {
    changes = await readJson(request, mediaUpdateSchema);
  }

  try {
    await assertClientExists(changes.clientId);
    const set: Partial<typeof media.$inferInsert> = { ...changes };
    if (posterPath) {
      Object.assign(set, await makePosterDerivatives(row.storageKey, posterPath, Date.now()));
      await storage.publishItem(row.storageKey, POSTER_VARIANTS);
    }
    const visible = (r: { isFeatured: boolean; showInPortfolio: boolean }) => r.isFeatured || r.showInPortfolio;
    const newlyAssigned = await db.transaction(async (tx) => {
      if (Object.keys(set).length) await tx.update(media).set(set).where(eq(media.id, id));
      // A new title gives a new watch-page address; the old one answers 301 (slugs.ts).
      if (changes.title !== undefined && (changes.title !== row.title || !row.slug)) await applyTitleSlug(tx, { id, title: changes.title, type: row.type, slug: row.slug });
      const linked =
        changes.clientId != null
          ? await tx.insert(mediaClients).values({ mediaId: id, clientId: changes.clientId }).onConflictDoNothing().returning({ id: mediaClients.id })
          : [];
      const after = { isFeatured: changes.isFeatured ?? row.isFeatured, showInPortfolio: changes.showInPortfolio ?? row.showInPortfolio };
      // Public pages show featured/portfolio items (and settings-referenced ones): any change to those counts.
      if (visible(row) || visible(after) || posterPath) await bumpSiteVersion(tx);
      if (linked.length) await enqueueClientPreviews(tx, changes.clientId!, id);
      return linked.length > 0 ? changes.clientId! : null;
    });
    // A client that was not assigned before hears of the item (after the commit).
    if (newlyAssigned != null) await recordEvent({ kind: 'assigned', mediaId: id, clientId: newlyAssigned });
  } catch (e) {
    throw asHttp(e);
  } finally {
    if (posterPath) await fs.rm(posterPath, { force: true });
    // An emptied working folder (S3) goes; an item's own folder (local) is never empty.
    await fs.rmdir(mediaFolder(row.storageKey)).catch(() => {});
  }
  return (await getAdminMedia(id))!;
}

/** DELETE /api/media/{id}: the row (versions, links, feedback and notes cascade; settings are set to null), then every version's files. */
export async function deleteMedia(id: number): Promise<void> {
  const row = await getMediaById(id);
  if (!row) throw new HttpError(404, 'Media not found');
  const keys = await db.transaction(async (tx) => {
    const versions = await tx.select({ key: mediaVersions.storageKey }).from(mediaVersions).where(eq(mediaVersions.mediaId, id));
    await tx.delete(media).where(eq(media.id, id));
    await bumpSiteVersion(tx);
    return new Set([row.storageKey, ...versions.map((v) => v.key)]);
  });
  // After the row: a crash here leaves unreferenced files, never a row without files. The
  // row's jobs went with it (cascade); their worker sees that at the next heartbeat and kills ffmpeg.
  for (const key of keys) {
    // The item is gone either way: a folder that would not go is logged for the operator
    // (and swept later), not reported to staff as a failed delete.
    await storage.removeItem(key).catch((e) => console.error(`Media ${id}: could not remove the files of ${key}: ${e instanceof Error ? e.message : e}`));
  }
}

/** POST /api/media/{id}/reprocess: a running conversion is stopped and the item queued again. */
export async function reprocessMedia(id: number): Promise<AdminMedia> {
  const row = await getMediaById(id);
  if (!row) throw new HttpError(404, 'Media not found');
  if (row.type !== 'video') throw new HttpError(400, 'Only a video can be processed again');
  await reprocess(id);
  return (await getAdminMedia(id))!;
}

/** GET /api/media/{id}/processing. */
export async function mediaPlayback(id: number): Promise<Playback> {
  const row = await getMediaById(id);
  if (!row) throw new HttpError(404, 'Media not found');
  return playbackFields(row);
}

async function linkTargets(mediaId: number, clientId: number) {
  const [m] = await db.select({ id: media.id }).from(media).where(eq(media.id, mediaId)).limit(1);
  if (!m) throw new HttpError(404, 'Media not found');
  const [c] = await db.select({ id: clients.id }).from(clients).where(eq(clients.id, clientId)).limit(1);
  if (!c) throw new HttpError(404, 'Client not found');
}

/** Assigns a client; true when the link is new. */
export async function assignClient(mediaId: number, clientId: number): Promise<boolean> {
  await linkTargets(mediaId, clientId);
  const rows = await db.insert(mediaClients).values({ mediaId, clientId }).onConflictDoNothing().returning({ id: mediaClients.id });
  if (rows.length) {
    await enqueueClientPreviews(db, clientId, mediaId);
    await recordEvent({ kind: 'assigned', mediaId, clientId });
  }
  return rows.length > 0;
}

/**
 * Removes an assignment; 404 when the client was not assigned. The item's own client
 * (media.clientId) also grants access, so it is cleared when it names this client.
 */
export async function unassignClient(mediaId: number, clientId: number): Promise<void> {
  await linkTargets(mediaId, clientId);
  const removed = await db.transaction(async (tx) => {
    const rows = await tx
      .delete(mediaClients)
      .where(and(eq(mediaClients.mediaId, mediaId), eq(mediaClients.clientId, clientId)))
      .returning({ id: mediaClients.id });
    const own = await tx
      .update(media)
      .set({ clientId: null })
      .where(and(eq(media.id, mediaId), eq(media.clientId, clientId)))
      .returning({ id: media.id });
    return rows.length + own.length;
  });
  if (!removed) throw new HttpError(404, 'That client is not assigned to this media');
}
