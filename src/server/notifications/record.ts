// recordEvent: the one entry point. Called after the caller's own write succeeded; it writes
// the event and one outbox row per recipient in one transaction (so an event never exists
// without its messages) and never throws into the caller's request: a failure here is logged
// and the request carries on. Nothing here talks to SMTP; the sender loop does that.
import { eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { media, mediaVersions, notificationEvents, notificationOutbox } from '../../db/schema.ts';
import { assignedClientIds, clientRecipients, staffRecipients, type Recipient } from './recipients.ts';
import { coreOf, firstLine, itemPath, subjectOf, summaryOf, withFooter } from './texts.ts';
import type { Audience, EventFacts, NotificationEvent } from './types.ts';

export type { NotificationEvent } from './types.ts';

async function currentVersionNumber(storageKey: string): Promise<number | null> {
  const [v] = await db.select({ n: mediaVersions.number }).from(mediaVersions).where(eq(mediaVersions.storageKey, storageKey)).limit(1);
  return v?.n ?? null;
}

async function record(e: NotificationEvent): Promise<void> {
  const [item] = await db.select({ title: media.title, storageKey: media.storageKey }).from(media).where(eq(media.id, e.mediaId)).limit(1);
  if (!item) return; // deleted meanwhile: nothing left to point at
  const audience: Audience = e.kind === 'assigned' || e.kind === 'new_version' ? 'client' : 'staff';
  const facts: EventFacts = {
    kind: e.kind,
    mediaId: e.mediaId,
    title: item.title,
    versionNumber: 'versionNumber' in e ? e.versionNumber : await currentVersionNumber(item.storageKey),
    actor: 'actor' in e ? e.actor : 'The studio',
    via: 'via' in e ? e.via : null,
    detail: 'detail' in e ? e.detail : '',
  };
  let recipients: Recipient[];
  if (e.kind === 'assigned') recipients = await clientRecipients([e.clientId]);
  else if (e.kind === 'new_version') recipients = await clientRecipients(await assignedClientIds(e.mediaId));
  else recipients = await staffRecipients();
  // Client events are only worth a row when someone hears of them; staff ones also feed the bell.
  if (audience === 'client' && !recipients.length) return;

  const subject = subjectOf(facts);
  const core = coreOf(facts, audience);
  const now = Date.now();
  await db.transaction(async (tx) => {
    const [event] = await tx
      .insert(notificationEvents)
      .values({
        kind: e.kind,
        mediaId: e.mediaId,
        versionNumber: facts.versionNumber,
        clientId: e.kind === 'assigned' ? e.clientId : null,
        actor: 'actor' in e ? e.actor : '',
        summary: summaryOf(facts),
        path: itemPath(audience, e.mediaId),
        audience,
        noteMs: 'note' in e && e.note ? e.note.ms : null,
        noteLine: 'note' in e && e.note ? firstLine(e.note.text) : null,
      })
      .returning({ id: notificationEvents.id });
    if (!recipients.length) return;
    await tx.insert(notificationOutbox).values(
      recipients.map((r) => ({
        eventId: event!.id,
        recipientKind: audience,
        recipientId: r.id,
        recipientAddress: r.address,
        subject,
        // A held row keeps the bare text: its digest adds one footer for all of them.
        body: r.mode === 'digest' ? core : withFooter(core, audience),
        status: r.mode === 'digest' ? ('held' as const) : ('pending' as const),
        nextAttemptAt: now,
      })),
    );
  });
}

export async function recordEvent(e: NotificationEvent): Promise<void> {
  try {
    await record(e);
  } catch (error) {
    console.error(`Notification for ${e.kind} on media ${e.mediaId} could not be recorded (the change itself is saved):`, error);
  }
}
