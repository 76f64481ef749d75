// Notes a client user ties to a moment of a video (001 §3 Timeline note), with the exact time,
// range end and drawings of issue 29; the portal also lists the studio's notes that are not internal.
import { checkMentions, storeMentions, tellMentioned } from '../rounds/mentions.ts';
import { and, asc, eq, or, sql, type SQL } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientUsers, media, mediaVersions, timelineNotes } from '../../db/schema.ts';
import { assignedTo } from './assigned.ts';
import { checkAgainstDuration, checkNoteTarget, readShapes, safeMs, storeShapes } from '../review/note-fields.ts';
import { resolveNoteTime } from '../../shared/schemas/notes.ts';
import { repliesFor } from '../review/replies.ts';
import { reviewedVersion } from './reviewed-version.ts';
import { MAX_TIMELINE_SECONDS, type ClientTimelineNote, type TimelineNoteInput } from '../../shared/schemas/portal.ts';
import { getAssignedMedia } from './media.ts';
import { formatTimestamp } from '../../shared/format.ts';
import { recordEvent } from '../notifications/index.ts';
import { clientActor } from '../notifications/actors.ts';
import { cuesFor, insertPinned, pinCue } from '../captions/cue-notes.ts';

interface ClientUserRef {
  id: number;
  clientId: number;
  username: string;
  /** The client's name, for the studio's notification. */
  name?: string;
}

/**
 * The stored timestamp as a safe whole number within 0..(duration or 24 h). Rows written before
 * the input was bounded can hold a huge integer (which the driver refuses to read as a number)
 * or a real such as 1e308; clamping in SQL keeps every list readable whatever is stored.
 */
export function safeTimestamp(): SQL<number> {
  // The note's own version's length (queries join media_versions on the note's version).
  const upper = sql`coalesce(${mediaVersions.durationSeconds}, ${media.durationSeconds}, ${MAX_TIMELINE_SECONDS})`;
  return sql<number>`cast(max(0, min(${timelineNotes.timestampSeconds}, ${upper})) as integer)`.mapWith(Number);
}

const upperSeconds = () => sql`coalesce(${mediaVersions.durationSeconds}, ${media.durationSeconds}, ${MAX_TIMELINE_SECONDS})`;

/** The exact time of a note as stored (issue 29), clamped like safeTimestamp. */
export function safeTimestampMs(): SQL<number> {
  return safeMs(timelineNotes.timestampMs, timelineNotes.timestampSeconds, upperSeconds());
}

/**
 * Own notes, and the studio's notes that are not internal on items assigned to the client's
 * account (issue 29), in playback order per item.
 */
export async function listOwnTimelineNotes(clientUserId: number, clientId?: number): Promise<ClientTimelineNote[]> {
  const rows = await db
    .select({
      id: timelineNotes.id,
      mediaId: timelineNotes.mediaId,
      clientUsername: clientUsers.username,
      authorName: timelineNotes.authorName,
      byStaff: timelineNotes.byStaff,
      timestampSeconds: safeTimestamp(),
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
    .where(
      or(
        eq(timelineNotes.clientUserId, clientUserId),
        clientId != null ? and(eq(timelineNotes.byStaff, true), eq(timelineNotes.internal, false), assignedTo(clientId)) : undefined,
      ),
    )
    .orderBy(asc(timelineNotes.mediaId), asc(safeTimestamp()), asc(timelineNotes.id));
  const ids = rows.map((r) => r.id);
  const [replies, cues] = await Promise.all([repliesFor('note', ids), cuesFor('client', ids)]);
  return rows.map(({ authorName, byStaff, clientUsername, shapes, ...r }) => ({
    ...r,
    clientUsername: byStaff ? authorName : (clientUsername ?? ''),
    source: byStaff ? ('staff' as const) : ('client' as const),
    timestampSeconds: Math.floor(r.timestampMs / 1000),
    shapes: readShapes(shapes),
    createdAt: r.createdAt.toISOString(),
    resolvedAt: r.resolvedAt?.toISOString() ?? null,
    replies: replies.get(r.id) ?? [],
    cue: cues.get(r.id) ?? null,
  }));
}

/** `timestampMs` wins over `timestampSeconds`; the stored seconds are floor(ms / 1000). */
export async function addTimelineNote(user: ClientUserRef, input: TimelineNoteInput): Promise<ClientTimelineNote> {
  const item = await getAssignedMedia(user.clientId, input.mediaId);
  const version = await reviewedVersion(item, input.versionId);
  const time = resolveNoteTime(input);
  checkNoteTarget(item.type, input, time);
  checkAgainstDuration(input, time, version.durationSeconds);
  const pin = await pinCue(version.id, input, time.timestampMs);
  const mentions = await checkMentions(item.id, { kind: 'client', clientUserId: user.id, clientId: user.clientId }, input.mentions);
  const { row, cue } = await insertPinned('client', pin, async (tx) => {
    const [inserted] = await tx
      .insert(timelineNotes)
      .values({
        mediaId: input.mediaId,
        clientUserId: user.id,
        timestampSeconds: time.timestampSeconds,
        timestampMs: time.timestampMs,
        endMs: time.endMs,
        shapes: storeShapes(time.shapes),
        noteText: input.noteText,
        versionId: version.id,
      })
      .returning();
    await storeMentions(tx, inserted!.id, mentions);
    return inserted!;
  });
  await tellMentioned({ mediaId: input.mediaId, versionNumber: version.number, ms: row.timestampMs ?? row.timestampSeconds * 1000, text: row.noteText, author: clientActor(user) }, mentions);
  await recordEvent({
    kind: 'note',
    mediaId: input.mediaId,
    versionNumber: version.number,
    actor: clientActor(user),
    via: 'client',
    detail: `At ${formatTimestamp(row.timestampSeconds)}: ${row.noteText}`,
    note: { ms: row.timestampMs ?? row.timestampSeconds * 1000, text: row.noteText },
  });
  return {
    id: row.id,
    mediaId: row.mediaId,
    clientUsername: user.username,
    source: 'client',
    ...time,
    noteText: row.noteText,
    createdAt: row.createdAt.toISOString(),
    versionId: version.id,
    versionNumber: version.number,
    resolvedAt: null,
    replies: [],
    cue,
  };
}
