// Notes a client user ties to a moment of a video (001 §3 Timeline note).
import { asc, eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientUsers, timelineNotes } from '../../db/schema.ts';
import { badRequest } from '../http.ts';
import type { ClientTimelineNote, TimelineNoteInput } from '../../shared/schemas/portal.ts';
import { getAssignedMedia } from './media.ts';

interface ClientUserRef {
  id: number;
  clientId: number;
  username: string;
}

/** Own notes, in playback order per item. */
export async function listOwnTimelineNotes(clientUserId: number): Promise<ClientTimelineNote[]> {
  const rows = await db
    .select({
      id: timelineNotes.id,
      mediaId: timelineNotes.mediaId,
      clientUsername: clientUsers.username,
      timestampSeconds: timelineNotes.timestampSeconds,
      noteText: timelineNotes.noteText,
      createdAt: timelineNotes.createdAt,
    })
    .from(timelineNotes)
    .innerJoin(clientUsers, eq(clientUsers.id, timelineNotes.clientUserId))
    .where(eq(timelineNotes.clientUserId, clientUserId))
    .orderBy(asc(timelineNotes.mediaId), asc(timelineNotes.timestampSeconds), asc(timelineNotes.id));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/** `input.timestampSeconds` is already whole seconds (the schema rounds down). */
export async function addTimelineNote(user: ClientUserRef, input: TimelineNoteInput): Promise<ClientTimelineNote> {
  const item = await getAssignedMedia(user.clientId, input.mediaId);
  if (item.durationSeconds != null && input.timestampSeconds > item.durationSeconds) {
    throw badRequest(`timestampSeconds: Timestamp must not be beyond the end of the video (${item.durationSeconds} seconds)`);
  }
  const [row] = await db
    .insert(timelineNotes)
    .values({ mediaId: input.mediaId, clientUserId: user.id, timestampSeconds: input.timestampSeconds, noteText: input.noteText })
    .returning();
  return {
    id: row!.id,
    mediaId: row!.mediaId,
    clientUsername: user.username,
    timestampSeconds: row!.timestampSeconds,
    noteText: row!.noteText,
    createdAt: row!.createdAt.toISOString(),
  };
}
