// Staff notes on a version (issue 29): time-coded notes by the studio in the same thread as the
// client's and the link visitors', stored in timeline_notes (by_staff). An internal one is for
// staff only: never listed to clients or link visitors, and no notification is sent for any
// staff note (so none can reach a client's or visitor's email).
import { timelineNotes } from '../../db/schema.ts';
import { checkMentions, storeMentions, tellMentioned } from '../rounds/mentions.ts';
import { notFound } from '../http.ts';
import { getMediaById } from '../media/queries.ts';
import { reviewedVersion } from '../portal/reviewed-version.ts';
import { checkAgainstDuration, checkNoteTarget, storeShapes } from './note-fields.ts';
import { insertPinned, pinCue } from '../captions/cue-notes.ts';
import { resolveNoteTime } from '../../shared/schemas/notes.ts';
import type { z } from '../../shared/zod.ts';
import type { staffNoteInputSchema } from '../../shared/schemas/review.ts';
import type { AdminTimelineNote } from '../../shared/schemas/media.ts';
import type { StaffUser } from '../auth/principals.ts';

export async function addStaffNote(mediaId: number, user: StaffUser, input: z.output<typeof staffNoteInputSchema>): Promise<AdminTimelineNote> {
  const item = await getMediaById(mediaId);
  if (!item) throw notFound('Media not found');
  const version = await reviewedVersion(item, input.versionId);
  const time = resolveNoteTime(input);
  checkNoteTarget(item.type, input, time);
  checkAgainstDuration(input, time, version.durationSeconds);
  const pin = await pinCue(version.id, input, time.timestampMs);
  const authorName = user.displayName || user.username;
  const mentions = await checkMentions(mediaId, { kind: 'staff', userId: user.id }, input.mentions, input.internal);
  const { row, cue } = await insertPinned('client', pin, async (tx) => {
    const [inserted] = await tx
      .insert(timelineNotes)
      .values({
        mediaId,
        clientUserId: null,
        staffUserId: user.id,
        byStaff: true,
        authorName,
        internal: input.internal,
        timestampSeconds: time.timestampSeconds,
        timestampMs: time.timestampMs,
        endMs: time.endMs,
        shapes: storeShapes(time.shapes),
        noteText: input.text,
        versionId: version.id,
      })
      .returning();
    await storeMentions(tx, inserted!.id, mentions);
    return inserted!;
  });
  await tellMentioned({ mediaId, versionNumber: version.number, ms: row.timestampMs ?? row.timestampSeconds * 1000, text: row.noteText, author: authorName }, mentions);
  return {
    id: row.id,
    mediaId,
    mediaTitle: item.title,
    clientUserId: null,
    clientUsername: authorName,
    source: 'staff',
    guest: false,
    guestName: null,
    linkName: null,
    internal: row.internal,
    ...time,
    noteText: row.noteText,
    createdAt: row.createdAt.toISOString(),
    versionId: version.id,
    versionNumber: version.number,
    resolvedAt: null,
    replies: [],
    cue,
    task: null,
  };
}
