// Expiry reminders (issue 42): `reminder_days` before a gallery closes, its viewers hear of it
// once: client logins of its clients through the outbox (at once or in their digest, by their
// mode) and link guests who left an address. Run by the notification sender's round in every
// process; claiming a gallery's reminder is one UPDATE, so exactly one process sends it. A new
// expiry date (staff extend) gets a reminder of its own.
import { and, eq, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { galleries, galleryClients, proofViewers, shareLinks } from '../../db/schema.ts';
import { config } from '../config.ts';
import { decryptToken } from '../sharing/link-key.ts';
import { linkState, sharePath } from '../sharing/links.ts';
import { recordExpiryReminder } from './notify.ts';

const DAY_MS = 24 * 3600 * 1000;

export async function sendDueReminders(now = Date.now()): Promise<number> {
  const due = await db
    .select()
    .from(galleries)
    .where(
      and(
        isNotNull(galleries.expiresAt),
        isNotNull(galleries.reminderDays),
        sql`${galleries.expiresAt} > ${now}`,
        sql`${galleries.expiresAt} - ${galleries.reminderDays} * ${DAY_MS} <= ${now}`,
        or(isNull(galleries.remindedFor), ne(galleries.remindedFor, galleries.expiresOn)),
      ),
    );
  let sent = 0;
  for (const g of due) {
    // The claim: only the process that moves reminded_for to this date sends.
    const claimed = await db
      .update(galleries)
      .set({ remindedFor: g.expiresOn })
      .where(and(eq(galleries.id, g.id), eq(galleries.expiresOn, g.expiresOn!), or(isNull(galleries.remindedFor), ne(galleries.remindedFor, g.expiresOn!)), lte(galleries.expiresAt, new Date(now + g.reminderDays! * DAY_MS))))
      .returning({ id: galleries.id });
    if (!claimed.length) continue;
    const clientIds = (await db.select({ id: galleryClients.clientId }).from(galleryClients).where(eq(galleryClients.galleryId, g.id))).map((c) => c.id);
    const guests = await db
      .select({ address: proofViewers.email, link: shareLinks })
      .from(proofViewers)
      .innerJoin(shareLinks, eq(shareLinks.id, proofViewers.linkId))
      .where(and(eq(proofViewers.galleryId, g.id), ne(proofViewers.email, '')));
    // One message per address; only through links that still open.
    const byAddress = new Map<string, string | null>();
    for (const { address, link } of guests) {
      if (linkState(link, now) !== 'active' || byAddress.has(address.toLowerCase())) continue;
      const token = link.tokenEnc ? decryptToken(link.tokenEnc, link.tokenHash) : null;
      byAddress.set(address.toLowerCase(), token ? `${config.siteUrl}${sharePath(token)}` : null);
    }
    await recordExpiryReminder({ id: g.id, title: g.title, expiresOn: g.expiresOn! }, clientIds, [...byAddress].map(([address, url]) => ({ address, url })));
    sent++;
  }
  return sent;
}
