// Admin read side of the media library. The list is built from four flat queries (media,
// client links, feedback counts, note counts) so it stays fast with many thousands of items.
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Row } from '@libsql/client';
import { client, db } from '../../db/index.ts';
import { clientFeedback, clients, clientUsers, media, mediaClients, mediaVersions, shareComments, shareLinks, timelineNotes } from '../../db/schema.ts';
import { readShapes, safeMs } from '../review/note-fields.ts';
import { STREAMING } from './playback.ts';
import { MAX_TIMELINE_SECONDS } from '../../shared/schemas/notes.ts';
import type { VersionSummary } from '../../shared/schemas/review.ts';
import { repliesFor } from '../review/replies.ts';
import type { AdminFeedback, AdminMedia, AdminTimelineNote, AssignedClient, Playback } from '../../shared/schemas/media.ts';
import { playbackFields, type PlaybackColumns } from './playback.ts';
import type { MediaRow } from './queries.ts';
import { safeTimestampMs } from '../portal/timeline-notes.ts';
import { cuesFor } from '../captions/cue-notes.ts';
import { tasksFor } from '../rounds/tasks.ts';

/** Feedback and notes of an item: on its current version, and on earlier ones. */
interface ReviewCounts {
  feedbackCount: number;
  noteCount: number;
  earlierFeedbackCount: number;
  earlierNoteCount: number;
}

export function toAdminMedia(row: MediaRow, assignedClients: AssignedClient[], counts: ReviewCounts, versions: VersionSummary): AdminMedia {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
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
    feedbackCount: counts.feedbackCount,
    noteCount: counts.noteCount,
    earlierFeedbackCount: counts.earlierFeedbackCount,
    earlierNoteCount: counts.earlierNoteCount,
    version: versions.version,
    versionCount: versions.versionCount,
    approvalStatus: versions.approvalStatus,
    approvalLocked: versions.approvalLocked,
    ...playbackFields(row),
  };
}

/** Feedback or notes per item: on the item's current version (issue 16), and on all of them. */
function versionCounts(table: typeof clientFeedback | typeof timelineNotes, onlyIds?: number[]) {
  return db
    .select({ mediaId: table.mediaId, current: sql<number>`sum(${media.storageKey} = ${mediaVersions.storageKey})`.mapWith(Number), all: count() })
    .from(table)
    .innerJoin(mediaVersions, eq(mediaVersions.id, table.versionId))
    .innerJoin(media, eq(media.id, table.mediaId))
    .where(onlyIds ? inArray(table.mediaId, onlyIds) : undefined)
    .groupBy(table.mediaId);
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
    versionCounts(clientFeedback, onlyIds),
    versionCounts(timelineNotes, onlyIds),
  ]);
  const summaries = await versionSummaries(onlyIds);
  const byMedia = new Map<number, AssignedClient[]>();
  for (const l of links) {
    let list = byMedia.get(l.mediaId);
    if (!list) byMedia.set(l.mediaId, (list = []));
    list.push({ id: l.id, name: l.name, email: l.email });
  }
  const fb = new Map(feedback.map((f) => [f.mediaId, f]));
  const nt = new Map(notes.map((n) => [n.mediaId, n]));
  return rows.map((r) => {
    const f = fb.get(r.id) ?? { current: 0, all: 0 };
    const n = nt.get(r.id) ?? { current: 0, all: 0 };
    const counts = { feedbackCount: f.current, noteCount: n.current, earlierFeedbackCount: f.all - f.current, earlierNoteCount: n.all - n.current };
    return toAdminMedia(r, byMedia.get(r.id) ?? [], counts, summaries.get(r.id) ?? NO_VERSIONS);
  });
}

const NO_VERSIONS: VersionSummary = { version: 1, versionCount: 1, approvalStatus: 'in_review', approvalLocked: false };

/** Current version number, how many there are, and the current one's decision, per item. */
export async function versionSummaries(onlyIds?: number[]): Promise<Map<number, VersionSummary>> {
  const rows = await db
    .select({
      mediaId: media.id,
      version: mediaVersions.number,
      versionCount: sql<number>`(SELECT count(*) FROM media_versions c WHERE c.media_id = "media"."id")`.mapWith(Number),
      approvalStatus: mediaVersions.approvalStatus,
      approvalLocked: mediaVersions.approvalLocked,
    })
    .from(media)
    .innerJoin(mediaVersions, eq(mediaVersions.storageKey, media.storageKey))
    .where(onlyIds ? inArray(media.id, onlyIds) : undefined);
  return new Map(rows.map(({ mediaId, ...v }) => [mediaId, v]));
}

// Row objects from @libsql/client cost ~0.1 ms each, far too slow for 10,000 items, and
// parsing, reshaping and re-serialising 6 MB of JSON in JavaScript took about half of a cold
// rebuild, so SQLite writes the whole answer: one statement, one string. Key order, ISO dates
// (toISOString's format), booleans and the client order match what the objects serialised to;
// the key list follows AdminMedia (src/shared/schemas/media.ts).
const iso = (column: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', m.${column} / 1000.0, 'unixepoch')`;
const bool = (column: string) => `json(iif(m.${column}, 'true', 'false'))`;
// json_object writes REALs with 15 significant digits (0.1 + 0.2 became 0.3); 17 digits (the
// '!' flag lifts printf's 16-digit limit) parse back to the same double, as JSON.stringify has it.
const real = (column: string) => `iif(m.${column} IS NULL, NULL, json(printf('%!.17g', m.${column})))`;
// playbackFields (playback.ts) in SQL, so the list keeps being written by SQLite in one go:
// the same rules, key order and values as the single-item answer (a test compares the two).
// rtrim(url, <url without '/'>) keeps the URL up to its last '/': the item's folder.
const STATUS = `coalesce(m.processing_status, 'queued')`;
const READY = `(${STATUS} = 'ready')`;
const RENDITION_URL = `rtrim(m.url, replace(m.url, '/', '')) || json_extract(r.value, '$.variant') || iif(json_extract(r.value, '$.version'), '?v=' || json_extract(r.value, '$.version'), '')`;
const RENDITIONS = `(SELECT json_group_array(json_object(
    'label', json_extract(r.value, '$.label'),
    'url', ${RENDITION_URL},
    'width', json_extract(r.value, '$.width'), 'height', json_extract(r.value, '$.height')))
  FROM json_each(coalesce(m.renditions, '[]')) r)`;
// progressive() in playback.ts: the first (largest) proxy whose short side is at most 1080.
const PROGRESSIVE_URL = `(SELECT ${RENDITION_URL} FROM json_each(coalesce(m.renditions, '[]')) r
  ORDER BY min(json_extract(r.value, '$.width'), json_extract(r.value, '$.height')) > 1080, r.key LIMIT 1)`;
// streamUrlOf() in playback.ts: the master beside the first streamed proxy, with its version.
const STREAM_URL = `(SELECT rtrim(m.url, replace(m.url, '/', '')) || 'master.m3u8' || iif(json_extract(r.value, '$.version'), '?v=' || json_extract(r.value, '$.version'), '')
  FROM json_each(coalesce(m.renditions, '[]')) r WHERE json_extract(r.value, '$.hls') LIMIT 1)`;
const ORIGINAL_PLAYS = `iif(m.processing_status IS NULL, m.mime_type IN ('video/mp4', 'video/webm'), m.original_playable)`;
const PLAYBACK_JSON = `'processingStatus', iif(m.type = 'video', ${STATUS}, NULL),
  'processingProgress', iif(m.type = 'video', iif(${READY}, 100, max(0, min(100, coalesce(m.processing_progress, 0)))), 0),
  'processingError', iif(m.type = 'video' AND ${STATUS} = 'failed', m.processing_error, NULL),
  'playbackUrl', iif(m.type = 'video', coalesce(iif(${READY}, ${PROGRESSIVE_URL}, NULL), iif(${ORIGINAL_PLAYS}, m.url, NULL)), NULL),
  'renditions', json(iif(m.type = 'video' AND ${READY}, ${RENDITIONS}, '[]')),
  'spriteUrl', iif(m.type = 'video' AND ${READY}, m.sprite_url, NULL),
  'streamUrl', ${STREAMING ? `iif(m.type = 'video' AND ${READY}, ${STREAM_URL}, NULL)` : 'NULL'}`;
// The order comes from ordered subqueries, not from ORDER BY inside json_group_array (SQLite
// 3.44), which sqld's own SQL parser rejects (issue 44). SQLite keeps a subquery's ORDER BY
// when it is the only FROM term of an outer query without ORDER BY, and feeds the aggregate in
// that order (media-api.test.ts holds both databases to it).
// Each item's clients are one lookup in media_clients_unique: a GROUP BY over one ordered
// subquery would sort again, and SQLite's sorter does not promise to keep equal keys in order.
const LINKS = `(SELECT json_group_array(json_object('id', id, 'name', name, 'email', email))
  FROM (SELECT c.id, c.name, c.email FROM media_clients mc JOIN clients c ON c.id = mc.client_id
    WHERE mc.media_id = m.id ORDER BY c.name, c.id))`;
/**
 * Items per statement. sqld refuses any value of 5 MB or more (SQLITE_TOOBIG) and any answer
 * over 10 MB, and 10,000 items are over 6 MB of JSON: the list is written in chunks, walked by
 * (created_at, id) along media_created_idx, and joined here.
 */
const CHUNK = 2000;
/** Items older than the previous chunk's last: ?1 created_at, ?2 id. */
const AFTER = `(m.created_at < ?1 OR (m.created_at = ?1 AND m.id < ?2))`;
/** The library's items: a still uploaded into a gallery lives in the gallery (issue 53, media.gallery_id). */
const LIBRARY = `m.gallery_id IS NULL`;
const where = (after: boolean) => `WHERE ${LIBRARY}${after ? ` AND ${AFTER}` : ''}`;
const ORDER = `ORDER BY m.created_at DESC, m.id DESC`;
const listChunkSql = (after: boolean) => `WITH
  cur AS (SELECT m2.id AS media_id, v.id AS version_id, v.number, v.approval_status, v.approval_locked,
    (SELECT count(*) FROM media_versions c WHERE c.media_id = m2.id) AS n
    FROM media m2 JOIN media_versions v ON v.storage_key = m2.storage_key),
  fb AS (SELECT f.media_id, sum(f.version_id = cur.version_id) AS n, count(f.version_id) AS n_all FROM client_feedback f JOIN cur ON cur.media_id = f.media_id GROUP BY f.media_id),
  nt AS (SELECT t.media_id, sum(t.version_id = cur.version_id) AS n, count(t.version_id) AS n_all FROM timeline_notes t JOIN cur ON cur.media_id = t.media_id GROUP BY t.media_id)
SELECT json_group_array(json_object(
  'id', m.id, 'title', m.title, 'slug', m.slug, 'type', m.type, 'url', m.url, 'posterUrl', m.poster_url,
  'thumbnailUrl', m.thumbnail_url, 'thumbnailWebpUrl', m.thumbnail_webp_url, 'webpUrl', m.webp_url,
  'filename', m.filename, 'fileSize', m.file_size, 'mimeType', m.mime_type, 'width', m.width, 'height', m.height,
  'durationSeconds', ${real('duration_seconds')}, 'isFeatured', ${bool('is_featured')}, 'showInPortfolio', ${bool('show_in_portfolio')},
  'tags', json(m.tags), 'projectStage', m.project_stage, 'notes', m.notes, 'clientId', m.client_id,
  'uploadedBy', m.uploaded_by, 'createdAt', ${iso('created_at')}, 'uploadedAt', ${iso('uploaded_at')},
  'assignedClients', json(coalesce(m.links_j, '[]')), 'feedbackCount', coalesce(m.fb_n, 0), 'noteCount', coalesce(m.nt_n, 0),
  'earlierFeedbackCount', coalesce(m.fb_all - m.fb_n, 0), 'earlierNoteCount', coalesce(m.nt_all - m.nt_n, 0),
  'version', coalesce(m.cur_number, 1), 'versionCount', coalesce(m.cur_n, 1), 'approvalStatus', coalesce(m.cur_approval_status, 'in_review'),
  'approvalLocked', json(iif(m.cur_approval_locked, 'true', 'false')),
  ${PLAYBACK_JSON})) AS j
FROM (SELECT m.*, ${LINKS} AS links_j, fb.n AS fb_n, fb.n_all AS fb_all, nt.n AS nt_n, nt.n_all AS nt_all, cur.number AS cur_number, cur.n AS cur_n,
    cur.approval_status AS cur_approval_status, cur.approval_locked AS cur_approval_locked
  FROM media m
  LEFT JOIN cur ON cur.media_id = m.id
  LEFT JOIN fb ON fb.media_id = m.id
  LEFT JOIN nt ON nt.media_id = m.id
  ${where(after)}
  ${ORDER} LIMIT ${CHUNK}) m`;
const FIRST_CHUNK = listChunkSql(false);
const NEXT_CHUNK = listChunkSql(true);
/** The last item of a chunk: where the next one starts. */
const chunkEnd = (after: boolean) => `SELECT m.created_at, m.id FROM media m ${where(after)} ${ORDER} LIMIT 1 OFFSET ${CHUNK - 1}`;
const FIRST_END = chunkEnd(false);
const NEXT_END = chunkEnd(true);

/** The JSON text of every library item (AdminMedia[]), newest first, with assigned clients and review/note counts. */
export async function listAdminMediaJson(): Promise<string> {
  // One read transaction: every chunk from the same snapshot.
  const tx = await client.transaction('read');
  try {
    const parts: string[] = [];
    let after: [number, number] | null = null;
    for (;;) {
      const args: number[] = after ?? [];
      const chunk = String((await tx.execute({ sql: after ? NEXT_CHUNK : FIRST_CHUNK, args })).rows[0]?.j ?? '[]');
      if (chunk !== '[]') parts.push(chunk.slice(1, -1));
      const end: Row | undefined = (await tx.execute({ sql: after ? NEXT_END : FIRST_END, args })).rows[0];
      if (!end) break;
      after = [Number(end.created_at), Number(end.id)];
    }
    return `[${parts.join(',')}]`;
  } finally {
    tx.close();
  }
}

export async function getAdminMedia(id: number): Promise<AdminMedia | null> {
  const rows = await db.select().from(media).where(eq(media.id, id)).limit(1);
  if (!rows.length) return null;
  const [item] = await decorate(rows, [id]);
  return item ?? null;
}

/**
 * Clients' feedback and (issue 29, one thread) share-link visitors' feedback (`source: 'link'`,
 * `guest: true`, ids are share comments'), newest first.
 */
export async function listAdminFeedback(mediaId?: number, versionId?: number): Promise<AdminFeedback[]> {
  const [rows, guests] = await Promise.all([
    db
      .select({
        id: clientFeedback.id,
        mediaId: clientFeedback.mediaId,
        mediaTitle: media.title,
        clientUserId: clientFeedback.clientUserId,
        clientUsername: clientUsers.username,
        feedbackText: clientFeedback.feedbackText,
        rating: clientFeedback.rating,
        createdAt: clientFeedback.createdAt,
        versionId: clientFeedback.versionId,
        versionNumber: mediaVersions.number,
      })
      .from(clientFeedback)
      .innerJoin(media, eq(media.id, clientFeedback.mediaId))
      .leftJoin(mediaVersions, eq(mediaVersions.id, clientFeedback.versionId))
      .innerJoin(clientUsers, eq(clientUsers.id, clientFeedback.clientUserId))
      .where(and(mediaId ? eq(clientFeedback.mediaId, mediaId) : undefined, versionId ? eq(clientFeedback.versionId, versionId) : undefined)),
    guestComments('feedback', mediaId, versionId),
  ]);
  const [replies, guestReplies] = await Promise.all([repliesFor('feedback', rows.map((r) => r.id)), repliesFor('share', guests.map((g) => g.c.id))]);
  const out: (AdminFeedback & { at: number })[] = [
    ...rows.map((r) => ({
      ...r,
      source: 'client' as const,
      guest: false,
      guestName: null,
      linkName: null,
      at: r.createdAt.getTime(),
      createdAt: r.createdAt.toISOString(),
      replies: replies.get(r.id) ?? [],
    })),
    ...guests.map(({ c, mediaTitle, versionNumber, linkName }) => ({
      id: c.id,
      mediaId: c.mediaId,
      mediaTitle,
      clientUserId: null,
      clientUsername: c.guestName,
      feedbackText: c.text,
      rating: c.rating ?? 0,
      versionId: c.versionId,
      versionNumber,
      source: 'link' as const,
      guest: true,
      guestName: c.guestName,
      linkName,
      at: c.createdAt.getTime(),
      createdAt: c.createdAt.toISOString(),
      replies: guestReplies.get(c.id) ?? [],
    })),
  ];
  out.sort((a, b) => b.at - a.at || b.id - a.id);
  return out.map(({ at: _at, ...f }) => f);
}

/** Share-link visitors' feedback or notes, for the staff lists. */
function guestComments(kind: 'feedback' | 'note', mediaId?: number, versionId?: number) {
  return db
    .select({
      c: shareComments,
      mediaTitle: media.title,
      versionNumber: mediaVersions.number,
      linkName: shareLinks.name,
      timestampMs: safeMs(shareComments.timestampMs, shareComments.timestampSeconds, sql`coalesce(${mediaVersions.durationSeconds}, ${media.durationSeconds}, ${MAX_TIMELINE_SECONDS})`),
    })
    .from(shareComments)
    .innerJoin(media, eq(media.id, shareComments.mediaId))
    .innerJoin(shareLinks, eq(shareLinks.id, shareComments.linkId))
    .leftJoin(mediaVersions, eq(mediaVersions.id, shareComments.versionId))
    .where(and(eq(shareComments.kind, kind), mediaId ? eq(shareComments.mediaId, mediaId) : undefined, versionId ? eq(shareComments.versionId, versionId) : undefined));
}

/**
 * Notes grouped by item and sorted by their time within it (the detail dialog's order): clients'
 * and staff notes (issue 29, `source: 'staff'`, internal ones included: this is the staff list),
 * and share-link visitors' notes (`source: 'link'`, `guest: true`, ids are share comments').
 */
export async function listAdminTimelineNotes(mediaId?: number, versionId?: number): Promise<AdminTimelineNote[]> {
  const [rows, guests] = await Promise.all([
    db
      .select({
        id: timelineNotes.id,
        mediaId: timelineNotes.mediaId,
        mediaTitle: media.title,
        clientUserId: timelineNotes.clientUserId,
        clientUsername: clientUsers.username,
        byStaff: timelineNotes.byStaff,
        authorName: timelineNotes.authorName,
        internal: timelineNotes.internal,
        timestampMs: safeTimestampMs(),
        endMs: timelineNotes.endMs,
        shapes: timelineNotes.shapes,
        noteText: timelineNotes.noteText,
        createdAt: timelineNotes.createdAt,
        versionId: timelineNotes.versionId,
        versionNumber: mediaVersions.number,
        resolvedAt: timelineNotes.resolvedAt,
      })
      .from(timelineNotes)
      .innerJoin(media, eq(media.id, timelineNotes.mediaId))
      .leftJoin(mediaVersions, eq(mediaVersions.id, timelineNotes.versionId))
      .leftJoin(clientUsers, eq(clientUsers.id, timelineNotes.clientUserId))
      .where(and(mediaId ? eq(timelineNotes.mediaId, mediaId) : undefined, versionId ? eq(timelineNotes.versionId, versionId) : undefined)),
    guestComments('note', mediaId, versionId),
  ]);
  const noteIds = rows.map((r) => r.id);
  const guestIds = guests.map((g) => g.c.id);
  const [replies, guestReplies, cues, guestCues, tasks, guestTasks] = await Promise.all([
    repliesFor('note', noteIds),
    repliesFor('share', guestIds),
    cuesFor('client', noteIds),
    cuesFor('link', guestIds),
    tasksFor('client', noteIds),
    tasksFor('link', guestIds),
  ]);
  const out: AdminTimelineNote[] = [
    ...rows.map(({ byStaff, authorName, clientUsername, shapes, ...r }) => ({
      ...r,
      clientUsername: byStaff ? authorName : (clientUsername ?? ''),
      source: byStaff ? ('staff' as const) : ('client' as const),
      guest: false,
      guestName: null,
      linkName: null,
      timestampSeconds: Math.floor(r.timestampMs / 1000),
      shapes: readShapes(shapes),
      createdAt: r.createdAt.toISOString(),
      resolvedAt: r.resolvedAt?.toISOString() ?? null,
      replies: replies.get(r.id) ?? [],
      cue: cues.get(r.id) ?? null,
      task: tasks.get(r.id) ?? null,
    })),
    ...guests.map(({ c, mediaTitle, versionNumber, linkName, timestampMs }) => ({
      id: c.id,
      mediaId: c.mediaId,
      mediaTitle,
      clientUserId: null,
      clientUsername: c.guestName,
      source: 'link' as const,
      guest: true,
      guestName: c.guestName,
      linkName,
      internal: false,
      timestampSeconds: Math.floor(timestampMs / 1000),
      timestampMs,
      endMs: c.endMs,
      shapes: readShapes(c.shapes),
      noteText: c.text,
      createdAt: c.createdAt.toISOString(),
      versionId: c.versionId,
      versionNumber,
      resolvedAt: c.resolvedAt?.toISOString() ?? null,
      replies: guestReplies.get(c.id) ?? [],
      cue: guestCues.get(c.id) ?? null,
      task: guestTasks.get(c.id) ?? null,
    })),
  ];
  out.sort((a, b) => b.mediaId - a.mediaId || a.timestampMs - b.timestampMs || a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
  return out;
}
