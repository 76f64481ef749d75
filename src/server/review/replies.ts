// One level of replies under a client's feedback or timeline note (issue 16): staff answer,
// the client answers back. Resolution of timeline notes lives here too. Issue 29 (one thread):
// staff answer and resolve share-link comments the same way (`source: 'link'`), and a client
// answers the studio's notes that are not internal on items assigned to them.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientFeedback, mediaReplies, mediaVersions, shareComments, timelineNotes } from '../../db/schema.ts';
import { HttpError, notFound } from '../http.ts';
import { checkMentions, storeMentions, tellMentioned } from '../rounds/mentions.ts';
import type { Viewer } from '../rounds/rounds.ts';
import type { MentionRef } from '../../shared/schemas/mentions.ts';
import { clientActor } from '../notifications/actors.ts';
import { getAssignedMedia } from '../portal/media.ts';
import type { StaffUser, ClientPrincipal } from '../auth/principals.ts';
import type { Reply } from '../../shared/schemas/review.ts';

/** 'share': a share-link visitor's feedback or note (share_comments). */
export type ReplyParent = 'feedback' | 'note' | 'share';

const parentColumn = (kind: ReplyParent) =>
  kind === 'feedback' ? mediaReplies.feedbackId : kind === 'note' ? mediaReplies.timelineNoteId : mediaReplies.shareCommentId;

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
    const key = (kind === 'feedback' ? r.feedbackId : kind === 'note' ? r.timelineNoteId : r.shareCommentId)!;
    let list = out.get(key);
    if (!list) out.set(key, (list = []));
    list.push(toReply(r));
  }
  return out;
}

interface Parent {
  mediaId: number;
  clientUserId: number | null;
  /** A staff note (issue 29), and whether it is internal. */
  byStaff: boolean;
  internal: boolean;
}

async function parentOf(kind: ReplyParent, id: number): Promise<Parent | null> {
  if (kind === 'note') {
    const [row] = await db
      .select({ mediaId: timelineNotes.mediaId, clientUserId: timelineNotes.clientUserId, byStaff: timelineNotes.byStaff, internal: timelineNotes.internal })
      .from(timelineNotes)
      .where(eq(timelineNotes.id, id))
      .limit(1);
    return row ?? null;
  }
  if (kind === 'feedback') {
    const [row] = await db.select({ mediaId: clientFeedback.mediaId, clientUserId: clientFeedback.clientUserId }).from(clientFeedback).where(eq(clientFeedback.id, id)).limit(1);
    return row ? { ...row, byStaff: false, internal: false } : null;
  }
  const [row] = await db.select({ mediaId: shareComments.mediaId }).from(shareComments).where(eq(shareComments.id, id)).limit(1);
  return row ? { mediaId: row.mediaId, clientUserId: null, byStaff: false, internal: false } : null;
}

const missingText = (kind: ReplyParent) => (kind === 'feedback' ? 'Feedback not found' : kind === 'note' ? 'Timeline note not found' : 'Share comment not found');

async function insertReply(kind: ReplyParent, parentId: number, author: { staffUserId?: string; clientUserId?: number; name: string }, text: string, r: Pick<typeof db, 'insert'> = db): Promise<Reply> {
  const [row] = await r
    .insert(mediaReplies)
    .values({
      ...(kind === 'feedback' ? { feedbackId: parentId } : kind === 'note' ? { timelineNoteId: parentId } : { shareCommentId: parentId }),
      staffUserId: author.staffUserId ?? null,
      clientUserId: author.clientUserId ?? null,
      authorName: author.name,
      byStaff: author.staffUserId != null,
      replyText: text,
    })
    .returning();
  return toReply(row!);
}

/**
 * A reply under a timeline note that names people (issue 57): checked as the note's own mentions
 * would be (an internal note's thread names staff only), stored on the note with the reply in
 * one transaction, and the named told of the note's moment.
 */
async function replyWithMentions(parentId: number, parent: Parent, author: Viewer & { name: string }, text: string, refs: MentionRef[], row: { staffUserId?: string; clientUserId?: number; name: string }): Promise<Reply> {
  const mentions = await checkMentions(parent.mediaId, author, refs, parent.internal);
  const reply = await db.transaction(async (tx) => {
    const made = await insertReply('note', parentId, row, text, tx);
    await storeMentions(tx, parentId, mentions);
    return made;
  });
  const [note] = await db
    .select({ ms: timelineNotes.timestampMs, seconds: timelineNotes.timestampSeconds, number: mediaVersions.number })
    .from(timelineNotes)
    .leftJoin(mediaVersions, eq(mediaVersions.id, timelineNotes.versionId))
    .where(eq(timelineNotes.id, parentId))
    .limit(1);
  if (note) await tellMentioned({ mediaId: parent.mediaId, versionNumber: note.number ?? 1, ms: note.ms ?? note.seconds * 1000, text, author: author.name }, mentions);
  return reply;
}

/** Staff (view:media) answer any client's feedback or note, any staff note, and any share-link comment. */
export async function addStaffReply(kind: ReplyParent, parentId: number, user: StaffUser, text: string, mentions: MentionRef[] = []): Promise<Reply> {
  const parent = await parentOf(kind, parentId);
  if (!parent) throw notFound(missingText(kind));
  const row = { staffUserId: user.id, name: user.displayName || user.username };
  if (mentions.length) {
    if (kind !== 'note') throw new HttpError(400, NO_MENTIONS_HERE);
    return replyWithMentions(parentId, parent, { kind: 'staff', userId: user.id, name: row.name }, text, mentions, row);
  }
  return insertReply(kind, parentId, row, text);
}

/** A client answers back under their own feedback or note, while the item is still assigned to them. */
export async function addClientReply(kind: ReplyParent, parentId: number, user: ClientPrincipal, text: string, mentions: MentionRef[] = []): Promise<Reply> {
  const missing = notFound(missingText(kind));
  if (kind === 'share') throw missing;
  const parent = await parentOf(kind, parentId);
  // Their own, or (issue 29) a studio note that is not internal on an item assigned to them.
  if (!parent || (parent.clientUserId !== user.id && !(parent.byStaff && !parent.internal))) throw missing;
  await getAssignedMedia(user.clientId, parent.mediaId).catch(() => {
    throw missing;
  });
  const row = { clientUserId: user.id, name: user.username };
  if (mentions.length) {
    if (kind !== 'note') throw new HttpError(400, NO_MENTIONS_HERE);
    return replyWithMentions(parentId, parent, { kind: 'client', clientUserId: user.id, clientId: user.clientId, name: clientActor(user) }, text, mentions, row);
  }
  return insertReply(kind, parentId, row, text);
}

export const NO_MENTIONS_HERE = 'mentions: only a timeline note’s thread can mention people';

/**
 * PUT /api/admin/media/timeline-notes/{id}/resolved (edit:media): a client's or staff note, or
 * with `source: 'link'` a share-link visitor's note.
 */
export async function setNoteResolved(noteId: number, resolved: boolean, userId: string, source: 'client' | 'link' = 'client'): Promise<{ id: number; resolvedAt: string | null }> {
  const values = resolved ? { resolvedAt: new Date(), resolvedBy: userId } : { resolvedAt: null, resolvedBy: null };
  if (source === 'link') {
    const [row] = await db
      .update(shareComments)
      .set(values)
      .where(and(eq(shareComments.id, noteId), eq(shareComments.kind, 'note')))
      .returning({ id: shareComments.id, resolvedAt: shareComments.resolvedAt });
    if (!row) throw notFound('Share comment not found');
    return { id: row.id, resolvedAt: row.resolvedAt?.toISOString() ?? null };
  }
  const [row] = await db
    .update(timelineNotes)
    .set(values)
    .where(eq(timelineNotes.id, noteId))
    .returning({ id: timelineNotes.id, resolvedAt: timelineNotes.resolvedAt });
  if (!row) throw notFound('Timeline note not found');
  return { id: row.id, resolvedAt: row.resolvedAt?.toISOString() ?? null };
}
