// Export a version's notes as NLE markers (issue 30): which notes whoever asks may have, then
// the pure writers. Staff (view:media) get every client's, staff and link visitor's note on the
// version, internal staff notes only when asked; a client gets only their own notes, as CSV.
import { and, eq, sql } from 'drizzle-orm';
import { db } from '../../../db/index.ts';
import { clientUsers, mediaVersions, shareComments, shareLinks, timelineNotes } from '../../../db/schema.ts';
import { badRequest, notFound } from '../../http.ts';
import { getMediaById, type MediaRow } from '../../media/queries.ts';
import { cleanName, contentDisposition } from '../../media/delivery.ts';
import { getAssignedMedia } from '../../portal/media.ts';
import { safeMs } from '../note-fields.ts';
import { probeFacts } from '../versions.ts';
import { MAX_TIMELINE_SECONDS } from '../../../shared/schemas/notes.ts';
import { isMarkerFormat, MARKER_FORMATS, WRITERS, type MarkerFormat, type MarkerNote, type MarkerVersion } from './index.ts';
import { cuesFor } from '../../captions/cue-notes.ts';
import type { NoteCue } from '../../../shared/schemas/notes.ts';
import { tasksFor } from '../../rounds/tasks.ts';
import { TASK_STATE_LABELS, type NoteTask } from '../../../shared/schemas/tasks.ts';

/** `?format=` checked: 400 naming the parameter otherwise. */
export function parseFormat(value: string | null, allowed: readonly MarkerFormat[] = MARKER_FORMATS): MarkerFormat {
  if (!isMarkerFormat(value) || !allowed.includes(value)) {
    throw badRequest(`format: ${value ? `Unknown export format "${value.slice(0, 40)}"` : 'Choose an export format'}; one of ${allowed.join(', ')}`);
  }
  return value;
}

type ExportVersion = MarkerVersion & { id: number; upperSeconds: number };

async function versionOf(item: MediaRow, versionId: number): Promise<ExportVersion> {
  const [v] = await db.select().from(mediaVersions).where(eq(mediaVersions.id, versionId)).limit(1);
  if (!v || v.mediaId !== item.id) throw notFound(`Version not found: version ${versionId} is not a version of this media item`);
  const { frameRate, startTimecode } = probeFacts(v.probe);
  // Times are clamped to the version's length as every note list does (safeTimestampMs).
  const upperSeconds = v.durationSeconds ?? item.durationSeconds ?? MAX_TIMELINE_SECONDS;
  return { id: v.id, upperSeconds, title: item.title, versionNumber: v.number, frameRate, startTimecode, durationSeconds: v.durationSeconds, width: v.width, height: v.height };
}

/**
 * Staff: every note on the version, as the staff thread lists it (clients', staff and link
 * visitors' notes: see listAdminTimelineNotes), internal ones only with `internal`. Its own lean
 * query: no replies or drawings, which markers do not carry (1,000 notes within the 200 ms budget).
 */
export async function staffMarkers(mediaId: number, versionId: number, format: MarkerFormat, internal: boolean): Promise<Response> {
  const item = await getMediaById(mediaId);
  if (!item) throw notFound('Media not found');
  const version = await versionOf(item, versionId);
  const upper = sql`${version.upperSeconds}`;
  const [rows, guests] = await Promise.all([
    db
      .select({
        id: timelineNotes.id,
        timestampMs: safeMs(timelineNotes.timestampMs, timelineNotes.timestampSeconds, upper),
        endMs: timelineNotes.endMs,
        byStaff: timelineNotes.byStaff,
        authorName: timelineNotes.authorName,
        clientUsername: clientUsers.username,
        internal: timelineNotes.internal,
        text: timelineNotes.noteText,
        createdAt: timelineNotes.createdAt,
        resolvedAt: timelineNotes.resolvedAt,
      })
      .from(timelineNotes)
      .leftJoin(clientUsers, eq(clientUsers.id, timelineNotes.clientUserId))
      .where(and(eq(timelineNotes.mediaId, item.id), eq(timelineNotes.versionId, version.id), internal ? undefined : eq(timelineNotes.internal, false))),
    db
      .select({
        id: shareComments.id,
        timestampMs: safeMs(shareComments.timestampMs, shareComments.timestampSeconds, upper),
        endMs: shareComments.endMs,
        guestName: shareComments.guestName,
        linkName: shareLinks.name,
        text: shareComments.text,
        createdAt: shareComments.createdAt,
        resolvedAt: shareComments.resolvedAt,
      })
      .from(shareComments)
      .innerJoin(shareLinks, eq(shareLinks.id, shareComments.linkId))
      .where(and(eq(shareComments.kind, 'note'), eq(shareComments.mediaId, item.id), eq(shareComments.versionId, version.id))),
  ]);
  const ids = rows.map((r) => r.id);
  const guestIds = guests.map((g) => g.id);
  const [cues, guestCues, tasks, guestTasks] = await Promise.all([cuesFor('client', ids), cuesFor('link', guestIds), tasksFor('client', ids), tasksFor('link', guestIds)]);
  const notes: MarkerNote[] = [
    ...rows.map((r) => ({
      id: r.id,
      timestampMs: r.timestampMs,
      endMs: r.endMs,
      author: r.byStaff ? r.authorName : (r.clientUsername ?? ''),
      source: r.byStaff ? ('staff' as const) : ('client' as const),
      internal: r.internal,
      resolved: r.resolvedAt != null,
      text: withTask(withCue(r.text, cues.get(r.id)), tasks.get(r.id)),
      createdAt: r.createdAt.toISOString(),
    })),
    ...guests.map((g) => ({
      id: g.id,
      timestampMs: g.timestampMs,
      endMs: g.endMs,
      author: g.linkName ? `${g.guestName} (link: ${g.linkName})` : (g.guestName ?? ''),
      source: 'link' as const,
      internal: false,
      resolved: g.resolvedAt != null,
      text: withTask(withCue(g.text, guestCues.get(g.id)), guestTasks.get(g.id)),
      createdAt: g.createdAt.toISOString(),
    })),
  ];
  return answer(version, notes, format);
}

/** A client: their own notes on a version of an item assigned to them (404 otherwise), never internal ones. */
export async function clientMarkers(client: { id: number; clientId: number; username: string }, mediaId: number, versionId: number, format: MarkerFormat): Promise<Response> {
  const item = await getAssignedMedia(client.clientId, mediaId);
  const version = await versionOf(item, versionId);
  const rows = await db
    .select({
      id: timelineNotes.id,
      timestampMs: safeMs(timelineNotes.timestampMs, timelineNotes.timestampSeconds, sql`${version.upperSeconds}`),
      endMs: timelineNotes.endMs,
      text: timelineNotes.noteText,
      createdAt: timelineNotes.createdAt,
      resolvedAt: timelineNotes.resolvedAt,
    })
    .from(timelineNotes)
    .where(and(eq(timelineNotes.mediaId, item.id), eq(timelineNotes.versionId, version.id), eq(timelineNotes.clientUserId, client.id), eq(timelineNotes.byStaff, false), eq(timelineNotes.internal, false)));
  const cues = await cuesFor('client', rows.map((r) => r.id));
  const notes = rows.map<MarkerNote>((r) => ({
    id: r.id,
    timestampMs: r.timestampMs,
    endMs: r.endMs,
    author: client.username,
    source: 'client',
    internal: false,
    resolved: r.resolvedAt != null,
    text: withCue(r.text, cues.get(r.id)),
    createdAt: r.createdAt.toISOString(),
  }));
  return answer(version, notes, format);
}

/**
 * A note pinned to a caption cue carries the cue into the editor's timeline (issue 54): a line
 * under the note naming the track, the cue's words, and the wording proposed and whether it was
 * accepted, e.g. `Caption (English): "Welcome to the harbour" → "Welcome to Harbour Studio" (accepted, revision 3)`.
 */
export function withCue(text: string, cue: NoteCue | undefined): string {
  if (!cue) return text;
  const proposed = cue.proposal == null ? '' : ` → "${cue.proposal}"${cue.acceptedRevision != null ? ` (accepted, revision ${cue.acceptedRevision})` : cue.acceptedAt ? ' (accepted)' : ''}`;
  return `${text}\nCaption${cue.trackLabel ? ` (${cue.trackLabel})` : ''}: "${cue.text}"${proposed}`;
}

/**
 * A note that is a task (issue 57) says so in the editor's timeline, done ones marked:
 * `Task: Done (Alex)`, `Task: To do (nobody yet)`. Staff exports only: a client's own export
 * never carries the studio's tasks.
 */
export function withTask(text: string, task: NoteTask | undefined): string {
  if (!task) return text;
  return `${text}\nTask: ${TASK_STATE_LABELS[task.state]} (${task.assignee?.name ?? 'nobody yet'})`;
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
