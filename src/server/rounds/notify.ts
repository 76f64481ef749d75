// Telling reviewers (issue 57): when a stage opens its reviewers hear that the item waits on
// them, and staff may remind one who has not decided. Staff get a bell line of their own (only
// their bell shows it) and an email if they chose emails; client logins an email unless they
// turned them off. Like recordEvent: written after the change, a failure logged, never thrown.
import { and, eq, inArray, ne } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientUsers, clients, media, notificationEvents, notificationOutbox, users } from '../../db/schema.ts';
import { itemLink, itemPath, withFooter } from '../notifications/texts.ts';
import { oneLine } from '../mail/plain-text.ts';

export interface ReviewerCall {
  mediaId: number;
  versionNumber: number;
  roundName: string;
  stageName: string;
  dueAt: Date | null;
  staffIds: string[];
  clientUserIds: number[];
  /** 'stage_open': the stage has just opened; 'reminder': staff asked again. */
  why: 'stage_open' | 'reminder';
  actor: string;
}

const due = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/London' });

export async function callReviewers(c: ReviewerCall): Promise<void> {
  try {
    const [item] = await db.select({ title: media.title }).from(media).where(eq(media.id, c.mediaId)).limit(1);
    if (!item) return;
    const title = oneLine(item.title, 120);
    const what = c.why === 'reminder' ? 'Reminder: your decision is awaited' : 'Your decision is awaited';
    const summary = `${what} on "${title}" v${c.versionNumber} (${oneLine(c.stageName, 60)})`;
    const subject = `${c.why === 'reminder' ? 'Reminder: ' : ''}Please review ${title} v${c.versionNumber}`;
    const core = (audience: 'staff' | 'client') =>
      [
        `"${title}" (version ${c.versionNumber}) is waiting on your decision in the review round "${oneLine(c.roundName, 80)}", stage "${oneLine(c.stageName, 60)}".`,
        c.dueAt ? `Due: ${due.format(c.dueAt)} (UK time).` : '',
        '',
        `Approve, approve with changes or request changes here: ${itemLink(audience, c.mediaId)}`,
      ]
        .filter((l, i) => l || i > 1)
        .join('\n');
    const staff = c.staffIds.length
      ? await db.select({ id: users.id, address: users.email, mode: users.notifyMode }).from(users).where(and(inArray(users.id, c.staffIds), eq(users.isActive, true)))
      : [];
    const logins = c.clientUserIds.length
      ? await db
          .select({ id: clientUsers.id, address: clientUsers.email, mode: clientUsers.notifyMode })
          .from(clientUsers)
          .innerJoin(clients, eq(clients.id, clientUsers.clientId))
          .where(and(inArray(clientUsers.id, c.clientUserIds), eq(clientUsers.isActive, true), eq(clients.isActive, true), ne(clientUsers.notifyMode, 'off')))
      : [];
    const now = Date.now();
    const message = (eventId: number, audience: 'staff' | 'client', r: { id: string | number; address: string; mode: string }) => ({
      eventId,
      recipientKind: audience,
      recipientId: String(r.id),
      recipientAddress: r.address,
      subject,
      body: r.mode === 'digest' ? core(audience) : withFooter(core(audience), audience),
      status: r.mode === 'digest' ? ('held' as const) : ('pending' as const),
      nextAttemptAt: now,
    });
    await db.transaction(async (tx) => {
      for (const s of staff) {
        const [event] = await tx
          .insert(notificationEvents)
          .values({ kind: 'round', mediaId: c.mediaId, versionNumber: c.versionNumber, actor: c.actor, summary, path: itemPath('staff', c.mediaId), audience: 'staff', recipientUserId: s.id })
          .returning({ id: notificationEvents.id });
        if (s.mode !== 'off') await tx.insert(notificationOutbox).values(message(event!.id, 'staff', s));
      }
      if (logins.length) {
        const [event] = await tx
          .insert(notificationEvents)
          .values({ kind: 'round', mediaId: c.mediaId, versionNumber: c.versionNumber, actor: c.actor, summary, path: itemPath('client', c.mediaId), audience: 'client' })
          .returning({ id: notificationEvents.id });
        await tx.insert(notificationOutbox).values(logins.map((l) => message(event!.id, 'client', l)));
      }
    });
  } catch (error) {
    console.error(`Review round notification for media ${c.mediaId} could not be recorded (the change itself is saved):`, error);
  }
}
