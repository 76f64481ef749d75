// The staff bell: the newest staff events and how many this user has not seen. Every staff
// user with view:media sees them, whatever their email mode.
import { and, count, desc, eq, gt, gte, isNull, max, or } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { notificationEvents, users } from '../../db/schema.ts';
import type { BellAnswer } from '../../shared/schemas/notifications.ts';

export const BELL_SIZE = 50;

async function bellState(userId: string) {
  const [u] = await db
    .select({ seen: users.bellSeenId, since: users.createdAt, mode: users.notifyMode, askSince: users.notifyAskSince, prompted: users.notifyPromptedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return {
    seen: u?.seen ?? 0,
    since: u?.since ?? new Date(0),
    // Asked once (issue 32): after their first upload or assignment, while emails are off and
    // they have not answered (choosing any mode, "No thanks" included, is the answer).
    askEmail: !!u && u.askSince != null && u.prompted == null && u.mode === 'off',
  };
}

export async function bellFor(userId: string): Promise<BellAnswer> {
  const { seen, since, askEmail } = await bellState(userId);
  // A new account's bell starts empty (issue 53): what happened before it existed is not news to it.
  // Events for one person (issue 57: a stage waiting on them, a reminder) reach only their bell.
  const staff = and(
    eq(notificationEvents.audience, 'staff'),
    gte(notificationEvents.createdAt, since),
    or(isNull(notificationEvents.recipientUserId), eq(notificationEvents.recipientUserId, userId)),
  );
  const rows = await db.select().from(notificationEvents).where(staff).orderBy(desc(notificationEvents.id)).limit(BELL_SIZE);
  const [unread] = await db.select({ n: count() }).from(notificationEvents).where(and(staff, gt(notificationEvents.id, seen)));
  return {
    askEmail,
    unread: unread?.n ?? 0,
    events: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      summary: r.summary,
      path: r.path,
      actor: r.actor,
      mediaId: r.mediaId,
      versionNumber: r.versionNumber,
      createdAt: r.createdAt.toISOString(),
      unread: r.id > seen,
      noteMs: r.noteMs,
      noteLine: r.noteLine,
    })),
  };
}

/** "Mark all read": everything up to the newest staff event counts as seen. */
export async function markBellSeen(userId: string): Promise<void> {
  const [newest] = await db.select({ id: max(notificationEvents.id) }).from(notificationEvents).where(eq(notificationEvents.audience, 'staff'));
  await db.update(users).set({ bellSeenId: newest?.id ?? 0 }).where(eq(users.id, userId));
}
