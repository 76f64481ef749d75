// The daily digest: rows of people in 'digest' mode are held; once per slot (a UK day from
// NOTIFY_DIGEST_HOUR, or NOTIFY_DIGEST_INTERVAL_MS for tests) each person with held rows gets
// one message listing them all, and the held rows are marked as carried by it. The slot is
// claimed in the same transaction as the digest rows are written, so with several processes
// exactly one of them makes each slot's digests.
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { notificationOutbox } from '../../db/schema.ts';
import { config } from '../config.ts';
import { digestOf } from './texts.ts';
import { slotAt } from './slot.ts';

/** The slot `now` falls in (see slot.ts), from the configured hour or interval. */
export const digestSlot = (now = Date.now()) => slotAt(now, config.NOTIFY_DIGEST_HOUR, config.NOTIFY_DIGEST_INTERVAL_MS, config.STUDIO_TIME_ZONE);

/** Runs the digest when this slot's has not run yet; returns the number of digest messages. */
export async function runDigestIfDue(now = Date.now()): Promise<number> {
  const slot = digestSlot(now);
  return db.transaction(async (tx) => {
    const claimed = await tx.all(sql`UPDATE notification_state SET digest_slot = ${slot} WHERE id = 1 AND digest_slot <> ${slot} RETURNING id`);
    if (!claimed.length) return 0;
    const held = await tx
      .select()
      .from(notificationOutbox)
      .where(eq(notificationOutbox.status, 'held'))
      .orderBy(asc(notificationOutbox.recipientKind), asc(notificationOutbox.recipientId), asc(notificationOutbox.id));
    const groups = new Map<string, typeof held>();
    for (const row of held) {
      const key = `${row.recipientKind}:${row.recipientId}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    for (const rows of groups.values()) {
      const first = rows[0]!;
      // Guests' messages (issue 42) are never held, so a digest is a staff or client one.
      const { subject, body } = digestOf(first.recipientKind === 'staff' ? 'staff' : 'client', rows);
      const [digest] = await tx
        .insert(notificationOutbox)
        .values({
          recipientKind: first.recipientKind,
          recipientId: first.recipientId,
          // The newest address, should it have changed in between.
          recipientAddress: rows.at(-1)!.recipientAddress,
          subject,
          body,
          status: 'pending',
          nextAttemptAt: now,
        })
        .returning({ id: notificationOutbox.id });
      await tx
        .update(notificationOutbox)
        .set({ status: 'digested', digestId: digest!.id })
        .where(inArray(notificationOutbox.id, rows.map((r) => r.id)));
    }
    return groups.size;
  });
}
