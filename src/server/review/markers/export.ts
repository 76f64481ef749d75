// Export a version's notes as NLE markers (issue 30): which notes whoever asks may have, then
// the pure writers. Staff (view:media) get every client's, staff and link visitor's note on the
// version, internal staff notes only when asked; a client gets only their own notes, as CSV.
import { and, eq } from 'drizzle-orm';
import { db } from '../../../db/index.ts';
import { media, mediaVersions, timelineNotes } from '../../../db/schema.ts';
import { badRequest, notFound } from '../../http.ts';
import { getMediaById, type MediaRow } from '../../media/queries.ts';
import { listAdminTimelineNotes } from '../../media/admin-queries.ts';
import { cleanName, contentDisposition } from '../../media/delivery.ts';
import { safeTimestampMs } from '../../portal/timeline-notes.ts';
import { getAssignedMedia } from '../../portal/media.ts';
import { probeFacts } from '../versions.ts';
import { isMarkerFormat, MARKER_FORMATS, WRITERS, type MarkerFormat, type MarkerNote, type MarkerVersion } from './index.ts';

/** `?format=` checked: 400 naming the parameter otherwise. */
export function parseFormat(value: string | null, allowed: readonly MarkerFormat[] = MARKER_FORMATS): MarkerFormat {
  if (!isMarkerFormat(value) || !allowed.includes(value)) {
    throw badRequest(`format: ${value ? `Unknown export format "${value.slice(0, 40)}"` : 'Choose an export format'}; one of ${allowed.join(', ')}`);
  }
  return value;
}

async function versionOf(item: MediaRow, versionId: number): Promise<MarkerVersion & { id: number }> {
  const [v] = await db.select().from(mediaVersions).where(eq(mediaVersions.id, versionId)).limit(1);
  if (!v || v.mediaId !== item.id) throw notFound(`Version not found: version ${versionId} is not a version of this media item`);
  const { frameRate, startTimecode } = probeFacts(v.probe);
  return { id: v.id, title: item.title, versionNumber: v.number, frameRate, startTimecode, durationSeconds: v.durationSeconds, width: v.width, height: v.height };
}

/** Staff: every note on the version; internal ones only with `internal`. */
export async function staffMarkers(mediaId: number, versionId: number, format: MarkerFormat, internal: boolean): Promise<Response> {
  const item = await getMediaById(mediaId);
  if (!item) throw notFound('Media not found');
  const version = await versionOf(item, versionId);
  const notes = (await listAdminTimelineNotes(item.id, version.id))
    .filter((n) => internal || !n.internal)
    .map<MarkerNote>((n) => ({
      id: n.id,
      timestampMs: n.timestampMs,
      endMs: n.endMs,
      author: n.source === 'link' && n.linkName ? `${n.clientUsername} (link: ${n.linkName})` : n.clientUsername,
      source: n.source,
      internal: n.internal,
      resolved: n.resolvedAt != null,
      text: n.noteText,
      createdAt: n.createdAt,
    }));
  return answer(version, notes, format);
}

/** A client: their own notes on a version of an item assigned to them (404 otherwise), never internal ones. */
export async function clientMarkers(client: { id: number; clientId: number; username: string }, mediaId: number, versionId: number, format: MarkerFormat): Promise<Response> {
  const item = await getAssignedMedia(client.clientId, mediaId);
  const version = await versionOf(item, versionId);
  const rows = await db
    .select({
      id: timelineNotes.id,
      timestampMs: safeTimestampMs(),
      endMs: timelineNotes.endMs,
      text: timelineNotes.noteText,
      createdAt: timelineNotes.createdAt,
      resolvedAt: timelineNotes.resolvedAt,
    })
    .from(timelineNotes)
    .innerJoin(media, eq(media.id, timelineNotes.mediaId))
    .leftJoin(mediaVersions, eq(mediaVersions.id, timelineNotes.versionId))
    .where(and(eq(timelineNotes.mediaId, item.id), eq(timelineNotes.versionId, version.id), eq(timelineNotes.clientUserId, client.id), eq(timelineNotes.byStaff, false), eq(timelineNotes.internal, false)));
  const notes = rows.map<MarkerNote>((r) => ({
    id: r.id,
    timestampMs: r.timestampMs,
    endMs: r.endMs,
    author: client.username,
    source: 'client',
    internal: false,
    resolved: r.resolvedAt != null,
    text: r.text,
    createdAt: r.createdAt.toISOString(),
  }));
  return answer(version, notes, format);
}

/** The file name offered: "Harbour Film v2 notes - Resolve.edl", "… notes.csv". */
export function markerFileName(version: Pick<MarkerVersion, 'title' | 'versionNumber'>, format: MarkerFormat): string {
  const stem = cleanName(version.title) || 'media';
  return `${stem} v${version.versionNumber} notes${WRITERS[format].suffix}`;
}

function answer(version: MarkerVersion, notes: MarkerNote[], format: MarkerFormat): Response {
  const w = WRITERS[format];
  return new Response(w.write(version, notes), {
    status: 200,
    headers: {
      'Content-Type': w.type,
      'Content-Disposition': contentDisposition(markerFileName(version, format)),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
