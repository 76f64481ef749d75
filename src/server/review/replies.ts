// One level of replies under a client's feedback or timeline note (issue 16): staff answer,
// the client answers back. Resolution of timeline notes lives here too.
import { asc, eq, inArray } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientFeedback, mediaReplies, timelineNotes } from '../../db/schema.ts';
import { notFound } from '../http.ts';
import { getAssignedMedia } from '../portal/media.ts';
import type { StaffUser, ClientPrincipal } from '../auth/principals.ts';
import type { Reply } from '../../shared/schemas/review.ts';

export type ReplyParent = 'feedback' | 'note';

const parentColumn = (kind: ReplyParent) => (kind === 'feedback' ? mediaReplies.feedbackId : mediaReplies.timelineNoteId);

function toReply(r: typeof mediaReplies.$inferSelect): Reply {
  return { id: r.id, author: r.authorName, by: r.byStaff ? 'staff' : 'client', text: r.replyText, createdAt: r.createdAt.toISOString() };
}

/** Replies of many feedback entries or notes at once, oldest first, keyed by parent id. */
export async function repliesFor(kind: ReplyParent, parentIds: number[]): Promise<Map<number, Reply[]>> {
  const out = new Map<number, Reply[]>();
  if (!parentIds.length) return out;
  const col = parentColumn(kind);
  const rows = await db.select().from(mediaReplies).where(inArray(col, parentIds)).orderBy(asc(mediaReplies.createdAt), asc(mediaReplies.id));
  for (const r of rows) {
    const key = (kind === 'feedback' ? r.feedbackId : r.timelineNoteId)!;
    let list = out.get(key);
    if (!list) out.set(key, (list = []));
    list.push(toReply(r));
  }
  return out;
}

async function parentOf(kind: ReplyParent, id: number): Promise<{ mediaId: number; clientUserId: number } | null> {
  const table = kind === 'feedback' ? clientFeedback : timelineNotes;
  const [row] = await db.select({ mediaId: table.mediaId, clientUserId: table.clientUserId }).from(table).where(eq(table.id, id)).limit(1);
  return row ?? null;
}

async function insertReply(kind: ReplyParent, parentId: number, author: { staffUserId?: string; clientUserId?: number; name: string }, text: string): Promise<Reply> {
  const [row] = await db
    .insert(mediaReplies)
    .values({
      ...(kind === 'feedback' ? { feedbackId: parentId } : { timelineNoteId: parentId }),
      staffUserId: author.staffUserId ?? null,
      clientUserId: author.clientUserId ?? null,
      authorName: author.name,
      byStaff: author.staffUserId != null,
      replyText: text,
    })
    .returning();
  return toReply(row!);
}

/** Staff (view:media) answer any client's feedback or note. */
export async function addStaffReply(kind: ReplyParent, parentId: number, user: StaffUser, text: string): Promise<Reply> {
  if (!(await parentOf(kind, parentId))) throw notFound(kind === 'feedback' ? 'Feedback not found' : 'Timeline note not found');
  return insertReply(kind, parentId, { staffUserId: user.id, name: user.displayName || user.username }, text);
}

/** A client answers back under their own feedback or note, while the item is still assigned to them. */
export async function addClientReply(kind: ReplyParent, parentId: number, user: ClientPrincipal, text: string): Promise<Reply> {
  const missing = notFound(kind === 'feedback' ? 'Feedback not found' : 'Timeline note not found');
  const parent = await parentOf(kind, parentId);
  if (!parent || parent.clientUserId !== user.id) throw missing;
  await getAssignedMedia(user.clientId, parent.mediaId).catch(() => {
    throw missing;
  });
  return insertReply(kind, parentId, { clientUserId: user.id, name: user.username }, text);
}

/** PUT /api/admin/media/timeline-notes/{id}/resolved (edit:media). */
export async function setNoteResolved(noteId: number, resolved: boolean, userId: string): Promise<{ id: number; resolvedAt: string | null }> {
  const [row] = await db
    .update(timelineNotes)
    .set(resolved ? { resolvedAt: new Date(), resolvedBy: userId } : { resolvedAt: null, resolvedBy: null })
    .where(eq(timelineNotes.id, noteId))
    .returning({ id: timelineNotes.id, resolvedAt: timelineNotes.resolvedAt });
  if (!row) throw notFound('Timeline note not found');
  return { id: row.id, resolvedAt: row.resolvedAt?.toISOString() ?? null };
}
