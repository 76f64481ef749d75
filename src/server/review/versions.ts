// Version stacks (issue 16): every item holds v1, v2, ... each with its own folder of files.
// The media row mirrors the current version's file columns (see media_versions in
// src/db/schema.ts), so making a version current is one update of the media row.
import { roundsAfterNewVersion } from '../rounds/rounds.ts';
import fs from 'node:fs/promises';
import { and, asc, count, eq, getTableColumns, max, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientFeedback, clientUsers, media, mediaVersions, timelineNotes, users } from '../../db/schema.ts';
import { conflict, HttpError, notFound } from '../http.ts';
import { bumpSiteVersion } from '../site-version.ts';
import { storage } from '../storage/index.ts';
import { enqueueProcessing } from '../jobs/queue.ts';
import { enqueueStillsOfGalleryImage } from '../proofing/stills.ts';
import { enqueueWatermarksOfVersion } from '../sharing/watermark-jobs.ts';
import { getAdminMedia } from '../media/admin-queries.ts';
import { asHttp, storeOriginal } from '../media/library.ts';
import { mediaFolder, newStorageKey } from '../storage/paths.ts';
import { playbackFields } from '../media/playback.ts';
import { liveState } from '../media/visibility.ts';
import { getMediaById, type MediaRow } from '../media/queries.ts';
import { finishInto } from '../uploads/finish.ts';
import { recordEvent } from '../notifications/index.ts';
import type { AdminMedia } from '../../shared/schemas/media.ts';
import { downloadHref, type Approval, type MediaVersion } from '../../shared/schemas/review.ts';

export type VersionRow = typeof mediaVersions.$inferSelect;

/** SQL: the item's current version is the one whose folder the media row names. */
export const isCurrentVersion = sql`${mediaVersions.storageKey} = ${media.storageKey}`;

/** Whether an item is on the public site (its files and pages change when its version does). */
async function versionRows(mediaId: number): Promise<(VersionRow & { uploaderName: string | null; approverName: string | null })[]> {
  return db
    .select({
      ...getTableColumns(mediaVersions),
      uploaderName: sql<string | null>`coalesce(nullif(${users.displayName}, ''), ${users.username})`,
      approverName: clientUsers.username,
    })
    .from(mediaVersions)
    .leftJoin(users, eq(users.id, mediaVersions.uploadedBy))
    .leftJoin(clientUsers, eq(clientUsers.id, mediaVersions.approvalBy))
    .where(eq(mediaVersions.mediaId, mediaId))
    .orderBy(asc(mediaVersions.number));
}

function approvalOf(v: VersionRow, approverName: string | null): Approval {
  return {
    status: v.approvalStatus,
    note: v.approvalNote,
    // A decision through a share link names the guest (issue 17).
    by: v.approvalStatus === 'in_review' ? null : (approverName ?? (v.approvalGuest ? `${v.approvalGuest} (share link)` : null)),
    at: v.approvalStatus === 'in_review' ? null : (v.approvalAt?.toISOString() ?? null),
    locked: v.approvalLocked,
  };
}

/** The frame rate and start timecode ffprobe found (SMPTE timecodes, frame stepping). */
export function probeFacts(probe: Record<string, unknown> | null): { frameRate: number | null; startTimecode: string | null } {
  const fps = typeof probe?.fps === 'number' && Number.isFinite(probe.fps) && probe.fps > 0 ? probe.fps : null;
  const tc = typeof probe?.startTimecode === 'string' ? probe.startTimecode : null;
  return { frameRate: fps, startTimecode: tc };
}

/**
 * Every version of an item, oldest first, with the current one marked. `onlyClientUserId`
 * counts only that client user's feedback and notes (what a client sees of their own).
 */
export async function listVersions(item: MediaRow, onlyClientUserId?: number): Promise<MediaVersion[]> {
  const rows = await versionRows(item.id);
  const own = (col: typeof clientFeedback.clientUserId | typeof timelineNotes.clientUserId) => (onlyClientUserId ? eq(col, onlyClientUserId) : undefined);
  const [fb, nt] = await Promise.all([
    db.select({ v: clientFeedback.versionId, n: count() }).from(clientFeedback).where(and(eq(clientFeedback.mediaId, item.id), own(clientFeedback.clientUserId))).groupBy(clientFeedback.versionId),
    db.select({ v: timelineNotes.versionId, n: count() }).from(timelineNotes).where(and(eq(timelineNotes.mediaId, item.id), own(timelineNotes.clientUserId))).groupBy(timelineNotes.versionId),
  ]);
  const fbBy = new Map(fb.map((r) => [r.v, r.n]));
  const ntBy = new Map(nt.map((r) => [r.v, r.n]));
  return rows.map((v) => ({
    id: v.id,
    number: v.number,
    current: v.storageKey === item.storageKey,
    url: v.url,
    webpUrl: v.webpUrl,
    posterUrl: v.posterUrl,
    thumbnailUrl: v.thumbnailUrl,
    filename: v.filename,
    fileSize: v.fileSize,
    mimeType: v.mimeType,
    width: v.width,
    height: v.height,
    durationSeconds: v.durationSeconds,
    ...probeFacts(v.probe),
    uploadedBy: v.uploaderName,
    createdAt: v.createdAt.toISOString(),
    approval: approvalOf(v, v.approverName),
    feedbackCount: fbBy.get(v.id) ?? 0,
    noteCount: ntBy.get(v.id) ?? 0,
    ...playbackFields({ ...v, type: item.type }),
    // Staff are never gated (issue 30); the client's endpoint replaces these (withClientDownloads).
    downloadUrl: downloadHref(v.url),
    downloadBlockedReason: null,
  }));
}

/** One version of an item; 404 when it is not one of this item's. */
export async function getVersion(mediaId: number, versionId: number): Promise<VersionRow> {
  const [v] = await db
    .select()
    .from(mediaVersions)
    .where(and(eq(mediaVersions.id, versionId), eq(mediaVersions.mediaId, mediaId)))
    .limit(1);
  if (!v) throw notFound('Version not found');
  return v;
}

/** The current version's row. */
export async function currentVersion(item: Pick<MediaRow, 'storageKey'>): Promise<VersionRow> {
  const [v] = await db.select().from(mediaVersions).where(eq(mediaVersions.storageKey, item.storageKey)).limit(1);
  if (!v) throw new HttpError(500, 'The media item has no current version');
  return v;
}

/** The media row's copy of a version's file columns. */
function mirrorOf(v: VersionRow) {
  return {
    storageKey: v.storageKey,
    url: v.url,
    posterUrl: v.posterUrl,
    thumbnailUrl: v.thumbnailUrl,
    thumbnailWebpUrl: v.thumbnailWebpUrl,
    webpUrl: v.webpUrl,
    filename: v.filename,
    fileSize: v.fileSize,
    mimeType: v.mimeType,
    width: v.width,
    height: v.height,
    durationSeconds: v.durationSeconds,
    processingStatus: v.processingStatus,
    processingProgress: v.processingProgress,
    processingError: v.processingError,
    renditions: v.renditions,
    spriteUrl: v.spriteUrl,
    originalPlayable: v.originalPlayable,
    probe: v.probe,
  };
}

export const LIVE_VERSION_NEEDS_EDIT =
  "You don't have permission to do that (needs edit:media): this item is on the public site or assigned to a client, and a new version replaces what they see.";

export const KIND_MISMATCH = (type: 'image' | 'video') =>
  `A new version must be ${type === 'video' ? 'a video' : 'an image'}, like the versions before it.`;

/**
 * POST /api/media/{id}/versions: a finished resumable upload becomes the item's next version
 * and its current one. Its approval starts "In review"; older versions keep their files,
 * feedback and notes. A video is queued for conversion like a new upload.
 */
export async function addVersion(
  mediaId: number,
  uploadId: string,
  user: { id: string; permissions: readonly string[] },
): Promise<{ item: AdminMedia; version: MediaVersion }> {
  const userId = user.id;
  const item = await getMediaById(mediaId);
  if (!item) throw notFound('Media not found');
  // A new version replaces what the site or a client sees at once: upload:media alone may add
  // versions only to items nobody outside the studio sees yet (issue 31). Checked before the
  // upload is touched, so it can still be finished elsewhere.
  const live = await liveState(mediaId);
  if (!live) throw notFound('Media not found');
  if ((live.isPublic || live.assigned) && !user.permissions.includes('edit:media')) throw new HttpError(403, LIVE_VERSION_NEEDS_EDIT);
  return finishInto(
    uploadId,
    userId,
    async (file) => {
      if (file.type.kind !== item.type) {
        await fs.rm(file.path, { force: true });
        throw new HttpError(415, KIND_MISMATCH(item.type));
      }
      const storageKey = newStorageKey();
      const folder = mediaFolder(storageKey);
      let versionId: number;
      try {
        await fs.mkdir(folder, { recursive: true });
        const { type: _type, ...columns } = await storeOriginal(storageKey, file, null);
        await storage.publishItem(storageKey);
        let number = 0;
        versionId = await db.transaction(async (tx) => {
          const [last] = await tx.select({ n: max(mediaVersions.number) }).from(mediaVersions).where(eq(mediaVersions.mediaId, mediaId));
          const [v] = await tx
            .insert(mediaVersions)
            .values({ mediaId, number: (last?.n ?? 0) + 1, ...columns, uploadedBy: userId, announceWhenReady: item.type === 'video' })
            .returning();
          number = v!.number;
          // The item's upload date is its newest version's, so clients see it under Recent Uploads.
          const moved = await tx.update(media).set({ ...mirrorOf(v!), uploadedAt: new Date() }).where(eq(media.id, mediaId)).returning({ id: media.id });
          if (!moved.length) throw notFound('Media not found'); // deleted while the file was being stored
          // Watermarked share links get a preview of the new cut: a video's once it is converted.
          if (item.type === 'video') await enqueueProcessing(tx, mediaId, v!.id);
          else await enqueueWatermarksOfVersion(tx, mediaId, v!.id);
          // An image in a proofing gallery gets its gallery sizes (issue 42).
          if (item.type === 'image') await enqueueStillsOfGalleryImage(tx, mediaId, v!.id);
          if (live.isPublic) await bumpSiteVersion(tx);
          // The item's review round moves on to the new cut (issue 57).
          await roundsAfterNewVersion(tx, mediaId);
          return v!.id;
        });
        // After the commit: the item's clients hear of it (the outbox does the sending). An image
        // is ready to see at once; a video is announced by the queue's `complete` when its
        // conversion is done (announce_when_ready), so the email never links to a version that
        // cannot play yet.
        if (item.type !== 'video') await recordEvent({ kind: 'new_version', mediaId, versionNumber: number });
      } catch (e) {
        await storage.removeItem(storageKey).catch(() => {});
        await fs.rm(folder, { recursive: true, force: true });
        throw asHttp(e);
      }
      const fresh = (await getMediaById(mediaId))!;
      const version = (await listVersions(fresh)).find((v) => v.id === versionId)!;
      return { item: (await getAdminMedia(mediaId))!, version };
    },
    () => mediaId,
  );
}

/**
 * DELETE /api/media/{id}/versions/{versionId}: its files, feedback, notes and job go with it.
 * The only version cannot be deleted (delete the item instead); when the current one goes,
 * the newest remaining version becomes current.
 */
export async function deleteVersion(mediaId: number, versionId: number): Promise<AdminMedia> {
  const item = await getMediaById(mediaId);
  if (!item) throw notFound('Media not found');
  const target = await getVersion(mediaId, versionId);
  await db.transaction(async (tx) => {
    const rest = await tx
      .select()
      .from(mediaVersions)
      .where(and(eq(mediaVersions.mediaId, mediaId), sql`${mediaVersions.id} <> ${versionId}`))
      .orderBy(asc(mediaVersions.number));
    if (!rest.length) throw conflict('This is the only version of this item: delete the item instead.');
    // Feedback, notes (and their replies) and jobs of the version cascade with it.
    await tx.delete(mediaVersions).where(eq(mediaVersions.id, versionId));
    if (target.storageKey === item.storageKey) {
      await tx.update(media).set(mirrorOf(rest[rest.length - 1]!)).where(eq(media.id, mediaId));
      if ((await liveState(mediaId, tx))?.isPublic) await bumpSiteVersion(tx);
    }
  });
  // After the rows, as for items: a crash here leaves unreferenced files, never a row without files.
  await storage.removeItem(target.storageKey);
  return (await getAdminMedia(mediaId))!;
}

/** PUT /api/media/{id}/versions/{versionId}/lock: staff fix (or free) the client's decision. */
export async function setApprovalLock(mediaId: number, versionId: number, locked: boolean, userId: string): Promise<MediaVersion> {
  const item = await getMediaById(mediaId);
  if (!item) throw notFound('Media not found');
  await getVersion(mediaId, versionId);
  await db
    .update(mediaVersions)
    .set(locked ? { approvalLocked: true, lockedBy: userId, lockedAt: new Date() } : { approvalLocked: false, lockedBy: null, lockedAt: null })
    .where(eq(mediaVersions.id, versionId));
  return (await listVersions(item)).find((v) => v.id === versionId)!;
}
