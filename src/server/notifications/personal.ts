// Events for named people (issue 57: a review stage waiting on them, a reminder, a mention):
// each staff user gets a bell line only their bell shows (notification_events.recipient_user_id)
// and an email in their mode; the client logins share one client event and get an email each
// unless they turned emails off. Inactive people (and logins of inactive clients) hear nothing.
// Written in one transaction: a line never exists without its emails.
import { and, eq, inArray, ne } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientUsers, clients, notificationEvents, notificationOutbox, users } from '../../db/schema.ts';
import { withFooter } from './texts.ts';

export interface PersonalEvent {
  kind: string;
  mediaId: number;
  versionNumber: number;
  actor: string;
  /** The bell's line. */
  summary: string;
  subject: string;
  /** The email's text and the in-app link, per audience. */
  core: (audience: 'staff' | 'client') => string;
  path: (audience: 'staff' | 'client') => string;
  /** A note's moment and first line, for the bell (mentions). */
  note?: { ms: number; line: string };
  staffIds: string[];
  clientUserIds: number[];
}

export async function tellPeople(e: PersonalEvent): Promise<void> {
  const staff = e.staffIds.length ? await db.select({ id: users.id, address: users.email, mode: users.notifyMode }).from(users).where(and(inArray(users.id, e.staffIds), eq(users.isActive, true))) : [];
  const logins = e.clientUserIds.length
    ? await db
        .select({ id: clientUsers.id, address: clientUsers.email, mode: clientUsers.notifyMode })
        .from(clientUsers)
        .innerJoin(clients, eq(clients.id, clientUsers.clientId))
        .where(and(inArray(clientUsers.id, e.clientUserIds), eq(clientUsers.isActive, true), eq(clients.isActive, true), ne(clientUsers.notifyMode, 'off')))
    : [];
  if (!staff.length && !logins.length) return;
  const now = Date.now();
  const message = (eventId: number, audience: 'staff' | 'client', r: { id: string | number; address: string; mode: string }) => ({
    eventId,
    recipientKind: audience,
    recipientId: String(r.id),
    recipientAddress: r.address,
    subject: e.subject,
    body: r.mode === 'digest' ? e.core(audience) : withFooter(e.core(audience), audience),
    status: r.mode === 'digest' ? ('held' as const) : ('pending' as const),
    nextAttemptAt: now,
  });
  const event = (audience: 'staff' | 'client', recipientUserId: string | null) => ({
    kind: e.kind,
    mediaId: e.mediaId,
    versionNumber: e.versionNumber,
    actor: e.actor,
    summary: e.summary,
    path: e.path(audience),
    audience,
    noteMs: e.note?.ms ?? null,
    noteLine: e.note?.line ?? null,
    recipientUserId,
  });
  await db.transaction(async (tx) => {
    for (const s of staff) {
      const [row] = await tx.insert(notificationEvents).values(event('staff', s.id)).returning({ id: notificationEvents.id });
      if (s.mode !== 'off') await tx.insert(notificationOutbox).values(message(row!.id, 'staff', s));
    }
    if (logins.length) {
      const [row] = await tx.insert(notificationEvents).values(event('client', null)).returning({ id: notificationEvents.id });
      await tx.insert(notificationOutbox).values(logins.map((l) => message(row!.id, 'client', l)));
    }
  });
}
