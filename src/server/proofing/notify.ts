// What galleries tell people (issue 42), through the same events and outbox as every other
// notification: staff hear of a submitted selection (bell and email, by their email mode),
// clients of a gallery shared with them, a list the studio reopened and the expiry reminder
// (by their mode: at once or in the digest), guests who left an address of the reminder only.
import { eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientUsers, notificationEvents, notificationOutbox } from '../../db/schema.ts';
import { config } from '../config.ts';
import { oneLine, quoted } from '../mail/plain-text.ts';
import { clientRecipients, staffRecipients, type Recipient } from '../notifications/recipients.ts';
import { withFooter } from '../notifications/texts.ts';
import { formatDate } from '../../shared/format.ts';

interface GalleryRef {
  id: number;
  title: string;
  expiresOn?: string | null;
  downloadPin?: string | null;
  downloadTier?: string;
}

export interface GuestRecipient {
  address: string;
  /** A guest has no portal: their message names the link's own address. */
  body: string;
}

interface ProofingEvent {
  kind: 'gallery_shared' | 'selection_submitted' | 'selection_reopened' | 'gallery_expiring';
  audience: 'staff' | 'client';
  clientId?: number | null;
  actor?: string;
  summary: string;
  subject: string;
  core: string;
  path: string;
  recipients: Recipient[];
  guests?: GuestRecipient[];
}

const GUEST_FOOTER = 'You get this email because you left this address when you opened the gallery. It is the only one you will get about it.';

/** The event and its messages in one transaction; like recordEvent, a failure is logged, never thrown. */
async function write(e: ProofingEvent): Promise<void> {
  try {
    if (e.audience === 'client' && !e.recipients.length && !e.guests?.length) return;
    const now = Date.now();
    await db.transaction(async (tx) => {
      const [event] = await tx
        .insert(notificationEvents)
        .values({ kind: e.kind, mediaId: null, clientId: e.clientId ?? null, actor: e.actor ?? '', summary: e.summary, path: e.path, audience: e.audience })
        .returning({ id: notificationEvents.id });
      const rows = [
        ...e.recipients.map((r) => ({
          eventId: event!.id,
          recipientKind: e.audience,
          recipientId: r.id,
          recipientAddress: r.address,
          subject: e.subject,
          body: r.mode === 'digest' ? e.core : withFooter(e.core, e.audience),
          status: r.mode === 'digest' ? ('held' as const) : ('pending' as const),
          nextAttemptAt: now,
        })),
        ...(e.guests ?? []).map((g) => ({
          eventId: event!.id,
          recipientKind: 'guest' as const,
          recipientId: g.address,
          recipientAddress: g.address,
          subject: e.subject,
          body: `${g.body}\n\n--\n${GUEST_FOOTER}`,
          status: 'pending' as const,
          nextAttemptAt: now,
        })),
      ];
      if (rows.length) await tx.insert(notificationOutbox).values(rows);
    });
  } catch (error) {
    console.error(`Gallery notification ${e.kind} could not be recorded (the change itself is saved):`, error);
  }
}

export const portalGalleryPath = (id: number) => `/client/galleries/${id}`;
export const adminGalleryPath = (id: number, tab?: string) => `/admin/galleries/${id}${tab ? `?tab=${tab}` : ''}`;
const title = (g: GalleryRef) => `"${oneLine(g.title, 120)}"`;
const lastDay = (on: string) => formatDate(`${on}T12:00:00Z`);

export async function recordGalleryShared(g: GalleryRef, clientIds: number[]): Promise<void> {
  for (const clientId of clientIds) {
    const until = g.expiresOn ? ` You can view it until the end of ${lastDay(g.expiresOn)} (UK time).` : '';
    // The PIN is for the client (issue 53, docs/proofing.md): it keeps a link's guests from
    // downloading, not the client the gallery is shared with, so their invitation carries it.
    const pin = g.downloadPin && g.downloadTier !== 'off' ? ['', `Downloads ask for a PIN: ${g.downloadPin}`] : [];
    await write({
      kind: 'gallery_shared',
      audience: 'client',
      clientId,
      summary: `The gallery ${title(g)} was shared with you`,
      subject: `New gallery to view: ${oneLine(g.title, 120)}`,
      core: [`The studio has shared the gallery ${title(g)} with you: heart the images you like and pick your selection.${until}`, ...pin, '', `Open it in your client portal: ${config.siteUrl}${portalGalleryPath(g.id)}`].join('\n'),
      path: portalGalleryPath(g.id),
      recipients: await clientRecipients([clientId]),
    });
  }
}

export async function recordSelectionSubmitted(g: GalleryRef, list: { name: string; maxCount: number | null }, viewer: string, count: number): Promise<void> {
  const of = `${count}${list.maxCount != null ? ` / ${list.maxCount}` : ''}`;
  await write({
    kind: 'selection_submitted',
    audience: 'staff',
    actor: viewer,
    summary: `${oneLine(viewer, 80)} submitted "${oneLine(list.name, 80)}" (${of}) in ${title(g)}`,
    subject: `Selection submitted: ${oneLine(list.name, 60)} (${of}) in ${oneLine(g.title, 60)} from ${oneLine(viewer, 60)}`,
    core: [
      `${oneLine(viewer)} submitted the list "${oneLine(list.name)}" in the gallery ${title(g)}: ${of} image${count === 1 ? '' : 's'}.`,
      '',
      `See it, export it or copy the file names for Lightroom: ${config.siteUrl}${adminGalleryPath(g.id, 'selections')}`,
    ].join('\n'),
    path: adminGalleryPath(g.id, 'selections'),
    recipients: await staffRecipients(),
  });
}

/** The client login whose list the studio reopened hears of it, with the studio's note. */
export async function recordSelectionReopened(g: GalleryRef, list: { name: string }, clientUserId: number, note: string): Promise<void> {
  const [login] = await db.select({ clientId: clientUsers.clientId }).from(clientUsers).where(eq(clientUsers.id, clientUserId)).limit(1);
  if (!login) return;
  const recipients = (await clientRecipients([login.clientId])).filter((r) => r.id === String(clientUserId));
  await write({
    kind: 'selection_reopened',
    audience: 'client',
    clientId: login.clientId,
    summary: `The studio reopened your list "${oneLine(list.name, 80)}" in ${title(g)}`,
    subject: `Your list "${oneLine(list.name, 60)}" is open again`,
    core: [`The studio reopened your list "${oneLine(list.name)}" in the gallery ${title(g)}, so you can change it and submit it again. Their note:`, '', quoted(note), '', `Open it: ${config.siteUrl}${portalGalleryPath(g.id)}`].join('\n'),
    path: portalGalleryPath(g.id),
    recipients,
  });
}

/** The reminder before a gallery closes: its clients' logins (by their mode) and guests who left an address. */
export async function recordExpiryReminder(g: GalleryRef & { expiresOn: string }, clientIds: number[], guests: { address: string; url: string | null }[]): Promise<void> {
  const what = `The gallery ${title(g)} closes at the end of ${lastDay(g.expiresOn)} (UK time). Download what you need and send your selection before then; after that it can no longer be opened.`;
  await write({
    kind: 'gallery_expiring',
    audience: 'client',
    summary: `The gallery ${title(g)} closes on ${lastDay(g.expiresOn)}`,
    subject: `${oneLine(g.title, 80)} closes on ${lastDay(g.expiresOn)}`,
    core: [what, '', `Open it in your client portal: ${config.siteUrl}${portalGalleryPath(g.id)}`].join('\n'),
    path: portalGalleryPath(g.id),
    recipients: await clientRecipients(clientIds),
    guests: guests.map((guest) => ({ address: guest.address, body: guest.url ? [what, '', `Open it: ${guest.url}`].join('\n') : what })),
  });
}
