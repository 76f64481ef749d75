// Admin read side of the media library. The list is built from four flat queries (media,
// client links, feedback counts, note counts) so it stays fast with many thousands of items.
import { asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { db } from '../../db/index.ts';
import { clientFeedback, clients, clientUsers, media, mediaClients, timelineNotes } from '../../db/schema.ts';
import type { AdminFeedback, AdminMedia, AdminTimelineNote, AssignedClient, Playback } from '../../shared/schemas/media.ts';
import { playbackFields, type PlaybackColumns } from './playback.ts';
import type { MediaRow } from './queries.ts';

export function toAdminMedia(row: MediaRow, assignedClients: AssignedClient[], feedbackCount: number, noteCount: number): AdminMedia {
  return {
    id: row.id,
    title: row.title,
    type: row.type,
    url: row.url,
    posterUrl: row.posterUrl,
    thumbnailUrl: row.thumbnailUrl,
    thumbnailWebpUrl: row.thumbnailWebpUrl,
    webpUrl: row.webpUrl,
    filename: row.filename,
    fileSize: row.fileSize,
    mimeType: row.mimeType,
    width: row.width,
    height: row.height,
    durationSeconds: row.durationSeconds,
    isFeatured: row.isFeatured,
    showInPortfolio: row.showInPortfolio,
    tags: row.tags ?? [],
    projectStage: row.projectStage,
    notes: row.notes,
    clientId: row.clientId,
    uploadedBy: row.uploadedBy,
    createdAt: row.createdAt.toISOString(),
    uploadedAt: row.uploadedAt.toISOString(),
    assignedClients,
    feedbackCount,
    noteCount,
    ...playbackFields(row),
  };
}

async function decorate(rows: MediaRow[], onlyIds?: number[]): Promise<AdminMedia[]> {
  const filter = (col: AnySQLiteColumn) => (onlyIds ? inArray(col, onlyIds) : undefined);
  const [links, feedback, notes] = await Promise.all([
    db
      .select({ mediaId: mediaClients.mediaId, id: clients.id, name: clients.name, email: clients.email })
      .from(mediaClients)
      .innerJoin(clients, eq(clients.id, mediaClients.clientId))
      .where(filter(mediaClients.mediaId))
      .orderBy(asc(clients.name), asc(clients.id)),
    db.select({ mediaId: clientFeedback.mediaId, n: count() }).from(clientFeedback).where(filter(clientFeedback.mediaId)).groupBy(clientFeedback.mediaId),
    db.select({ mediaId: timelineNotes.mediaId, n: count() }).from(timelineNotes).where(filter(timelineNotes.mediaId)).groupBy(timelineNotes.mediaId),
  ]);
  const byMedia = new Map<number, AssignedClient[]>();
  for (const l of links) {
    let list = byMedia.get(l.mediaId);
    if (!list) byMedia.set(l.mediaId, (list = []));
    list.push({ id: l.id, name: l.name, email: l.email });
  }
  const fb = new Map(feedback.map((f) => [f.mediaId, f.n]));
  const nt = new Map(notes.map((n) => [n.mediaId, n.n]));
  return rows.map((r) => toAdminMedia(r, byMedia.get(r.id) ?? [], fb.get(r.id) ?? 0, nt.get(r.id) ?? 0));
}

// Row objects from @libsql/client cost ~0.1 ms each, far too slow for 10,000 items, so
// the list is built by SQLite as JSON text (json_group_array) and parsed once: one query
// for the items, one for the client links, two GROUP BY counts.
const ITEM_JSON = sql.raw(`json_object(
  'id', id, 'title', title, 'type', type, 'url', url, 'posterUrl', poster_url,
  'thumbnailUrl', thumbnail_url, 'thumbnailWebpUrl', thumbnail_webp_url, 'webpUrl', webp_url,
  'filename', filename, 'fileSize', file_size, 'mimeType', mime_type, 'width', width, 'height', height,
  'durationSeconds', duration_seconds, 'isFeatured', is_featured, 'showInPortfolio', show_in_portfolio,
  'tags', json(tags), 'projectStage', project_stage, 'notes', notes, 'clientId', client_id,
  'uploadedBy', uploaded_by, 'createdAt', created_at, 'uploadedAt', uploaded_at,
  'processingStatus', processing_status, 'processingProgress', processing_progress,
  'processingError', processing_error, 'renditions', json(renditions), 'spriteUrl', sprite_url,
  'originalPlayable', original_playable)`);

type RawItem = Omit<AdminMedia, 'isFeatured' | 'showInPortfolio' | 'createdAt' | 'uploadedAt' | 'assignedClients' | 'feedbackCount' | 'noteCount' | keyof Playback> &
  Omit<PlaybackColumns, 'type' | 'url' | 'mimeType'> & {
  isFeatured: number;
  showInPortfolio: number;
  createdAt: number;
  uploadedAt: number;
};

async function jsonArray<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const rows = await db.all<{ j: string | null }>(query);
  return JSON.parse(rows[0]?.j ?? '[]') as T[];
}

/** Every item, newest first, with assigned clients and review/note counts. */
export async function listAdminMedia(): Promise<AdminMedia[]> {
  const items = await jsonArray<RawItem>(sql`SELECT json_group_array(${ITEM_JSON} ORDER BY created_at DESC, id DESC) AS j FROM media`);
  const links = await jsonArray<[number, number, string, string]>(
    sql`SELECT json_group_array(json_array(mc.media_id, c.id, c.name, c.email) ORDER BY c.name, c.id) AS j
        FROM media_clients mc JOIN clients c ON c.id = mc.client_id`,
  );
  const [feedback, notes] = await Promise.all([
    db.select({ mediaId: clientFeedback.mediaId, n: count() }).from(clientFeedback).groupBy(clientFeedback.mediaId),
    db.select({ mediaId: timelineNotes.mediaId, n: count() }).from(timelineNotes).groupBy(timelineNotes.mediaId),
  ]);
  const byMedia = new Map<number, AssignedClient[]>();
  for (const [mediaId, id, name, email] of links) {
    let list = byMedia.get(mediaId);
    if (!list) byMedia.set(mediaId, (list = []));
    list.push({ id, name, email });
  }
  const fb = new Map(feedback.map((f) => [f.mediaId, f.n]));
  const nt = new Map(notes.map((n) => [n.mediaId, n.n]));
  return items.map(({ processingStatus, processingProgress, processingError, renditions, spriteUrl, originalPlayable, ...r }) => ({
    ...r,
    ...playbackFields({ type: r.type, url: r.url, mimeType: r.mimeType, processingStatus, processingProgress, processingError, renditions, spriteUrl, originalPlayable }),
    isFeatured: !!r.isFeatured,
    showInPortfolio: !!r.showInPortfolio,
    createdAt: new Date(r.createdAt).toISOString(),
    uploadedAt: new Date(r.uploadedAt).toISOString(),
    assignedClients: byMedia.get(r.id) ?? [],
    feedbackCount: fb.get(r.id) ?? 0,
    noteCount: nt.get(r.id) ?? 0,
  }));
}

export async function getAdminMedia(id: number): Promise<AdminMedia | null> {
  const rows = await db.select().from(media).where(eq(media.id, id)).limit(1);
  if (!rows.length) return null;
  const [item] = await decorate(rows, [id]);
  return item ?? null;
}

export async function listAdminFeedback(mediaId?: number): Promise<AdminFeedback[]> {
  const rows = await db
    .select({
      id: clientFeedback.id,
      mediaId: clientFeedback.mediaId,
      mediaTitle: media.title,
      clientUserId: clientFeedback.clientUserId,
      clientUsername: clientUsers.username,
      feedbackText: clientFeedback.feedbackText,
      rating: clientFeedback.rating,
      createdAt: clientFeedback.createdAt,
    })
    .from(clientFeedback)
    .innerJoin(media, eq(media.id, clientFeedback.mediaId))
    .innerJoin(clientUsers, eq(clientUsers.id, clientFeedback.clientUserId))
    .where(mediaId ? eq(clientFeedback.mediaId, mediaId) : undefined)
    .orderBy(desc(clientFeedback.createdAt), desc(clientFeedback.id));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/** Notes grouped by item and sorted by their timestamp within it (the detail dialog's order). */
export async function listAdminTimelineNotes(mediaId?: number): Promise<AdminTimelineNote[]> {
  const rows = await db
    .select({
      id: timelineNotes.id,
      mediaId: timelineNotes.mediaId,
      mediaTitle: media.title,
      clientUserId: timelineNotes.clientUserId,
      clientUsername: clientUsers.username,
      timestampSeconds: timelineNotes.timestampSeconds,
      noteText: timelineNotes.noteText,
      createdAt: timelineNotes.createdAt,
    })
    .from(timelineNotes)
    .innerJoin(media, eq(media.id, timelineNotes.mediaId))
    .innerJoin(clientUsers, eq(clientUsers.id, timelineNotes.clientUserId))
    .where(mediaId ? eq(timelineNotes.mediaId, mediaId) : undefined)
    .orderBy(desc(timelineNotes.mediaId), asc(timelineNotes.timestampSeconds), asc(timelineNotes.id));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}
