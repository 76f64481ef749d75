// Notes and drawings on a still in a gallery (issue 42), "as today": a client's go where their
// portal notes go (timeline_notes, at 0 on an image), a link visitor's where the share page's go
// (share_comments), so staff read and answer them in the media item's dialog as they do now,
// and hear of them by the same notification. The studio's notes that are not internal show too.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { galleryImages, media, mediaVersions, shareComments, timelineNotes } from '../../db/schema.ts';
import { badRequest, HttpError, notFound } from '../http.ts';
import { readShapes, storeShapes } from '../review/note-fields.ts';
import { recordEvent } from '../notifications/index.ts';
import { clientActor } from '../notifications/actors.ts';
import type { Shape } from '../../shared/schemas/notes.ts';
import type { ViewerNote } from '../../shared/schemas/proofing.ts';
import { logLinkAccess, NAME_NEEDED, type Viewing } from './access.ts';

/** The gallery's images by media id (an item is in a gallery once). */
async function imagesByMedia(galleryId: number): Promise<Map<number, number>> {
  const rows = await db.select({ id: galleryImages.id, mediaId: galleryImages.mediaId }).from(galleryImages).where(eq(galleryImages.galleryId, galleryId));
  return new Map(rows.map((r) => [r.mediaId, r.id]));
}

/** The notes this viewer sees: their own (a link's: every visitor's of that link) and the studio's public ones, on current versions. */
export async function stillNotes(v: Viewing): Promise<ViewerNote[]> {
  const byMedia = await imagesByMedia(v.gallery.id);
  const mediaIds = [...byMedia.keys()];
  if (!mediaIds.length) return [];
  const current = eq(mediaVersions.storageKey, media.storageKey);
  const staff = await db
    .select({ n: timelineNotes })
    .from(timelineNotes)
    .innerJoin(media, eq(media.id, timelineNotes.mediaId))
    .innerJoin(mediaVersions, and(eq(mediaVersions.id, timelineNotes.versionId), current))
    .where(and(inArray(timelineNotes.mediaId, mediaIds), eq(timelineNotes.byStaff, true), eq(timelineNotes.internal, false)));
  const own =
    v.kind === 'client'
      ? (
          await db
            .select({ n: timelineNotes })
            .from(timelineNotes)
            .innerJoin(media, eq(media.id, timelineNotes.mediaId))
            .innerJoin(mediaVersions, and(eq(mediaVersions.id, timelineNotes.versionId), current))
            .where(and(inArray(timelineNotes.mediaId, mediaIds), eq(timelineNotes.clientUserId, v.client.id)))
        ).map(({ n }) => ({ id: n.id, mediaId: n.mediaId, author: v.client.name, text: n.noteText, shapes: n.shapes, createdAt: n.createdAt, mine: true }))
      : (
          await db
            .select({ c: shareComments })
            .from(shareComments)
            .innerJoin(media, eq(media.id, shareComments.mediaId))
            .innerJoin(mediaVersions, and(eq(mediaVersions.id, shareComments.versionId), current))
            .where(and(inArray(shareComments.mediaId, mediaIds), eq(shareComments.linkId, v.link.id), eq(shareComments.kind, 'note')))
        ).map(({ c }) => ({ id: c.id, mediaId: c.mediaId, author: c.guestName, text: c.text, shapes: c.shapes, createdAt: c.createdAt, mine: true }));
  const all = [...own, ...staff.map(({ n }) => ({ id: -n.id, mediaId: n.mediaId, author: n.authorName || 'The studio', text: n.noteText, shapes: n.shapes, createdAt: n.createdAt, mine: false }))];
  all.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  return all.map((n) => ({ id: n.id, imageId: byMedia.get(n.mediaId)!, author: n.author, text: n.text, shapes: readShapes(n.shapes), createdAt: n.createdAt.toISOString(), mine: n.mine }));
}

export async function addStillNote(v: Viewing, imageId: number, input: { text: string; shapes: Shape[] }): Promise<ViewerNote> {
  const [img] = await db
    .select({ mediaId: galleryImages.mediaId, versionId: mediaVersions.id, number: mediaVersions.number })
    .from(galleryImages)
    .innerJoin(media, eq(media.id, galleryImages.mediaId))
    .innerJoin(mediaVersions, eq(mediaVersions.storageKey, media.storageKey))
    .where(and(eq(galleryImages.id, imageId), eq(galleryImages.galleryId, v.gallery.id)))
    .limit(1);
  if (!img) throw notFound('Image not found');
  const shapes = storeShapes(input.shapes);
  const note = { ms: 0, text: input.text };
  if (v.kind === 'client') {
    const [row] = await db
      .insert(timelineNotes)
      .values({ mediaId: img.mediaId, clientUserId: v.client.id, timestampSeconds: 0, timestampMs: 0, shapes, noteText: input.text, versionId: img.versionId })
      .returning();
    await recordEvent({ kind: 'note', mediaId: img.mediaId, versionNumber: img.number, actor: clientActor(v.client), via: 'client', detail: input.text, note });
    return { id: row!.id, imageId, author: v.client.name, text: row!.noteText, shapes: input.shapes, createdAt: row!.createdAt.toISOString(), mine: true };
  }
  if (!v.link.allowComment) throw new HttpError(403, 'This link does not take comments.');
  const guestName = v.visit.guestName;
  if (!guestName) throw badRequest(NAME_NEEDED);
  const [row] = await db
    .insert(shareComments)
    .values({ linkId: v.link.id, mediaId: img.mediaId, versionId: img.versionId, guestName, kind: 'note', timestampSeconds: 0, timestampMs: 0, shapes, text: input.text })
    .returning();
  await logLinkAccess(v, 'note', { mediaId: img.mediaId, detail: input.text });
  await recordEvent({ kind: 'note', mediaId: img.mediaId, versionNumber: img.number, actor: guestName, via: 'link', detail: input.text, note });
  return { id: row!.id, imageId, author: guestName, text: row!.text, shapes: input.shapes, createdAt: row!.createdAt.toISOString(), mine: true };
}
