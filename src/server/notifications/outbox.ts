// The outbox's state changes. Rows are claimed by one UPDATE ... RETURNING inside a write
// (IMMEDIATE) transaction with a lease, so any number of processes share the table and never
// send a message twice; a sender that dies leaves its lease to run out and the row is taken
// again. Failed attempts wait NOTIFY_RETRY_BASE_MS, doubling; after NOTIFY_MAX_ATTEMPTS the
// row is kept as 'failed' with the last error.
import { and, eq, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { notificationOutbox } from '../../db/schema.ts';
import { config } from '../config.ts';

/** Long enough for one SMTP send with nodemailer's timeouts (10 s + 30 s) and a margin. */
const LEASE_MS = 120_000;
// One row per claim: a batch would hold later rows' leases while earlier ones are sent, and a
// slow SMTP server could outlast them, letting another process send those rows again.
const BATCH = 1;

export interface ClaimedMessage {
  id: number;
  recipientAddress: string;
  subject: string;
  body: string;
  attempts: number;
  createdAt: number;
}

export async function claimDue(owner: string, now = Date.now()): Promise<ClaimedMessage[]> {
  return db.transaction(async (tx) => {
    // A sender died holding rows on their last attempt: they will not be tried again.
    await tx.run(sql`
      UPDATE notification_outbox SET status = 'failed', lease_owner = NULL,
        last_error = coalesce(last_error, 'The sender stopped while sending this message.')
      WHERE status = 'sending' AND lease_expires_at < ${now} AND attempts >= ${config.NOTIFY_MAX_ATTEMPTS}`);
    const rows = await tx.all<{ id: number; recipient_address: string; subject: string; body: string; attempts: number; created_at: number }>(sql`
      UPDATE notification_outbox SET status = 'sending', lease_owner = ${owner}, lease_expires_at = ${now + LEASE_MS},
        attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM notification_outbox
        WHERE (status = 'pending' AND next_attempt_at <= ${now}) OR (status = 'sending' AND lease_expires_at < ${now})
        ORDER BY next_attempt_at, id LIMIT ${BATCH})
      RETURNING id, recipient_address, subject, body, attempts, created_at`);
    return rows.map((r) => ({ id: r.id, recipientAddress: r.recipient_address, subject: r.subject, body: r.body, attempts: r.attempts, createdAt: r.created_at }));
  });
}

const mine = (id: number, owner: string) =>
  and(eq(notificationOutbox.id, id), eq(notificationOutbox.leaseOwner, owner), eq(notificationOutbox.status, 'sending'));

export async function markSent(id: number, owner: string): Promise<void> {
  await db
    .update(notificationOutbox)
    .set({ status: 'sent', sentAt: new Date(), leaseOwner: null, leaseExpiresAt: null, lastError: null })
    .where(mine(id, owner));
}

/** No SMTP_URL: the message is in a file; `npm run notify:resend` queues it again later. */
export async function markWritten(id: number, owner: string, file: string): Promise<void> {
  await db
    .update(notificationOutbox)
    .set({ status: 'written', filePath: file, leaseOwner: null, leaseExpiresAt: null })
    .where(mine(id, owner));
}

/** Returns whether the row gave up ('failed') or waits for another attempt. */
export async function markAttemptFailed(m: ClaimedMessage, owner: string, error: string, now = Date.now()): Promise<'failed' | 'retry'> {
  const last = m.attempts >= config.NOTIFY_MAX_ATTEMPTS;
  await db
    .update(notificationOutbox)
    .set({
      status: last ? 'failed' : 'pending',
      nextAttemptAt: last ? now : now + config.NOTIFY_RETRY_BASE_MS * 2 ** (m.attempts - 1),
      lastError: error.slice(0, 2000),
      leaseOwner: null,
      leaseExpiresAt: null,
    })
    .where(mine(m.id, owner));
  return last ? 'failed' : 'retry';
}

/**
 * Makes written (no SMTP then) and failed rows pending again, with fresh attempts: for
 * `npm run notify:resend` once mail is configured or fixed. Returns how many.
 */
export async function requeueUnsent(): Promise<number> {
  const rows = await db
    .update(notificationOutbox)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: Date.now(), lastError: null })
    .where(sql`${notificationOutbox.status} in ('written', 'failed')`)
    .returning({ id: notificationOutbox.id });
  return rows.length;
}
