// Notes and drawings on a still in a gallery (issue 42), "as today": a client's go where their
// portal notes go (timeline_notes, at 0 on an image), a link visitor's where the share page's go
// (share_comments), so staff read and answer them in the media item's dialog as they do now,
// and hear of them by the same notification. The studio's notes that are not internal show too.
import { and, eq, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { galleryImages, media, mediaVersions, shareComments, timelineNotes } from '../../db/schema.ts';
import { badRequest, HttpError, notFound } from '../http.ts';
import { readShapes, storeShapes } from '../review/note-fields.ts';
import { recordEvent } from '../notifications/index.ts';
import { clientActor } from '../notifications/actors.ts';
import type { Shape } from '../../shared/schemas/notes.ts';
import type { ViewerNote } from '../../shared/schemas/proofing.ts';
import { logLinkAccess, NAME_NEEDED, type Viewing } from './access.ts';

/**
 * The notes this viewer sees: their own (a link's: every visitor's of that link) and the
 * studio's public ones, on the images' current versions. Joined from the gallery's images (no
 * list of 2,000 ids), through the notes' version index.
 */
export async function stillNotes(v: Viewing): Promise<ViewerNote[]> {
  const current = sql`FROM gallery_images gi JOIN media m ON m.id = gi.media_id JOIN media_versions ver ON ver.storage_key = m.storage_key`;
  const g = v.gallery.id;
  type Row = { id: number; imageId: number; author: string | null; text: string; shapes: string | null; createdAt: number; mine: number };
  const staff = db.all<Row>(sql`
    SELECT -n.id AS id, gi.id AS imageId, n.author_name AS author, n.note_text AS text, n.shapes AS shapes, n.created_at AS createdAt, 0 AS mine
    ${current} JOIN timeline_notes n ON n.version_id = ver.id
    WHERE gi.gallery_id = ${g} AND n.by_staff = 1 AND n.internal = 0`);
  const own =
    v.kind === 'client'
      ? db.all<Row>(sql`
          SELECT n.id AS id, gi.id AS imageId, ${v.client.name} AS author, n.note_text AS text, n.shapes AS shapes, n.created_at AS createdAt, 1 AS mine
          ${current} JOIN timeline_notes n ON n.version_id = ver.id
          WHERE gi.gallery_id = ${g} AND n.client_user_id = ${v.client.id}`)
      : db.all<Row>(sql`
          SELECT c.id AS id, gi.id AS imageId, c.guest_name AS author, c.text AS text, c.shapes AS shapes, c.created_at AS createdAt, 1 AS mine
          ${current} JOIN share_comments c ON c.media_id = gi.media_id AND c.version_id = ver.id
          WHERE gi.gallery_id = ${g} AND c.link_id = ${v.link.id} AND c.kind = 'note'`);
  const all = [...(await own), ...(await staff)].sort((a, b) => Number(a.createdAt) - Number(b.createdAt));
  return all.map((n) => ({
    id: Number(n.id),
    imageId: Number(n.imageId),
    author: n.author || 'The studio',
    text: n.text,
    shapes: readShapes(n.shapes),
    createdAt: new Date(Number(n.createdAt)).toISOString(),
    mine: !!n.mine,
  }));
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
