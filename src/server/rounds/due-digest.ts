// The reviewers' daily digest (issue 57 item 5): once a day, at REVIEW_DIGEST_HOUR of the
// studio's day (STUDIO_TIME_ZONE; the slot rules of the notification digest, so the clock
// changes neither skip nor repeat a day), every reviewer of an open stage with a due date
// within the next 24 hours or past, who has not decided on the current version, gets one email
// listing those items; nobody with nothing due gets one. The slot is claimed in the transaction
// that writes the messages, so with several processes exactly one sends each day's.
import { sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { notificationOutbox } from '../../db/schema.ts';
import { config } from '../config.ts';
import { slotAt } from '../notifications/slot.ts';
import { itemLink, withFooter } from '../notifications/texts.ts';
import { oneLine } from '../mail/plain-text.ts';

export const DUE_WITHIN_MS = 24 * 3600_000;
const when = (timeZone: string) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone });

export const reviewDigestSlot = (now = Date.now()) => slotAt(now, config.REVIEW_DIGEST_HOUR, config.REVIEW_DIGEST_INTERVAL_MS, config.STUDIO_TIME_ZONE);

interface DueRow {
  kind: 'staff' | 'client';
  recipient: string;
  address: string;
  media_id: number;
  title: string;
  number: number;
  stage: string;
  due_at: number;
}

/** Writes this slot's digests if no process has; returns how many people got one. */
export async function runReviewDigestIfDue(now = Date.now()): Promise<number> {
  const slot = reviewDigestSlot(now);
  // Read first: every notifier round of every process asks, and all but one a day find it sent;
  // they should not take the write lock to learn that.
  const [state] = await db.all<{ slot: string }>(sql`SELECT review_digest_slot AS slot FROM notification_state WHERE id = 1`);
  if (!state || state.slot === slot) return 0;
  return db.transaction(async (tx) => {
    const claimed = await tx.all(sql`UPDATE notification_state SET review_digest_slot = ${slot} WHERE id = 1 AND review_digest_slot <> ${slot} RETURNING id`);
    if (!claimed.length) return 0;
    // Undecided reviewers of open stages due within a day or overdue; staff who turned emails
    // off and client logins who did are left out, as are logins whose client no longer has the item.
    const rows = await tx.all<DueRow>(sql`
      WITH due AS (
        SELECT rv.user_id, rv.client_user_id, m.id AS media_id, m.title, m.client_id, v.number, s.name AS stage, s.due_at
        FROM review_rounds r
        JOIN media m ON m.id = r.media_id
        JOIN media_versions v ON v.storage_key = m.storage_key
        JOIN review_stages s ON s.round_id = r.id AND s.status = 'open' AND s.due_at IS NOT NULL AND s.due_at < ${now + DUE_WITHIN_MS}
        JOIN review_stage_reviewers rv ON rv.stage_id = s.id
        WHERE r.origin = 'staff' AND r.status IN ('in_review', 'changes_requested')
          AND NOT EXISTS (SELECT 1 FROM review_decisions d WHERE d.reviewer_id = rv.id AND d.version_id = v.id AND d.replaced_at IS NULL)
      )
      SELECT 'staff' AS kind, u.id AS recipient, u.email AS address, due.media_id, due.title, due.number, due.stage, due.due_at
        FROM due JOIN users u ON u.id = due.user_id
        WHERE u.is_active = 1 AND u.notify_mode <> 'off'
      UNION ALL
      SELECT 'client', CAST(cu.id AS TEXT), cu.email, due.media_id, due.title, due.number, due.stage, due.due_at
        FROM due JOIN client_users cu ON cu.id = due.client_user_id JOIN clients c ON c.id = cu.client_id
        WHERE cu.is_active = 1 AND c.is_active = 1 AND cu.notify_mode <> 'off'
          AND (due.client_id = cu.client_id OR EXISTS (SELECT 1 FROM media_clients mc WHERE mc.media_id = due.media_id AND mc.client_id = cu.client_id))
      ORDER BY 1, 2, 8`);
    const people = new Map<string, DueRow[]>();
    for (const r of rows) {
      const key = `${r.kind}:${r.recipient}`;
      people.set(key, [...(people.get(key) ?? []), r]);
    }
    const format = when(config.STUDIO_TIME_ZONE);
    const messages = [...people.values()].map((items) => {
      const first = items[0]!;
      const audience = first.kind;
      const overdue = items.filter((i) => Number(i.due_at) < now).length;
      const lines = items.map((i) => {
        const due = Number(i.due_at);
        return `- "${oneLine(i.title, 120)}" v${i.number}, stage "${oneLine(i.stage, 60)}": ${due < now ? `overdue since ${format.format(due)}` : `due ${format.format(due)}`}\n  ${itemLink(audience, Number(i.media_id))}`;
      });
      const n = items.length;
      return {
        recipientKind: audience,
        recipientId: String(first.recipient),
        recipientAddress: first.address,
        subject: `Reviews waiting on you: ${n} item${n === 1 ? '' : 's'}${overdue ? ` (${overdue} overdue)` : ''}`,
        body: withFooter([`These items wait on your decision, due within a day or overdue (${config.STUDIO_TIME_ZONE} time):`, '', ...lines].join('\n'), audience),
        status: 'pending' as const,
        nextAttemptAt: now,
      };
    });
    // In batches: 500 people are 500 rows, and a statement has a bound-parameter limit.
    for (let i = 0; i < messages.length; i += 100) await tx.insert(notificationOutbox).values(messages.slice(i, i + 100));
    return messages.length;
  });
}
