// @mentions (issue 57 item 3). Who an author may name on an item: staff name the staff who see
// the library and the active logins of the item's clients; a client names the other active
// logins of their own client, nobody else: a client never learns the studio's people or another
// client's logins through the list. An internal staff note names staff only (a client named in
// it would be told of a note they cannot see). A named person is told: staff by a bell line only
// they see and an email in their mode, client logins by email (unless off), each linking to the
// note at its frame.
import { and, eq, ne } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientUsers, clients, media, noteMentions } from '../../db/schema.ts';
import { tellPeople } from '../notifications/personal.ts';
import type { Database } from '../../db/client.ts';
import { HttpError } from '../http.ts';
import { oneLine } from '../mail/plain-text.ts';
import { itemLink, itemPath, firstLine } from '../notifications/texts.ts';
import { formatTimestamp } from '../../shared/format.ts';
import type { MentionRef, Mentionable } from '../../shared/schemas/mentions.ts';
import { reviewerCandidates, type Viewer } from './rounds.ts';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

export const MENTION_NOT_ALLOWED = 'mentions: you can mention only people who can see this item';
export const INTERNAL_MENTION = 'mentions: an internal note can mention staff only';

const keyOf = (r: MentionRef) => (r.kind === 'staff' ? `staff:${r.userId}` : `client:${r.clientUserId}`);

export async function mentionable(mediaId: number, author: Viewer): Promise<Mentionable[]> {
  if (author.kind === 'staff') {
    return (await reviewerCandidates(mediaId)).map((c) => ({
      ref: c.kind === 'staff' ? { kind: 'staff', userId: String(c.id) } : { kind: 'client', clientUserId: Number(c.id) },
      name: c.name,
      group: c.group,
    }));
  }
  const rows = await db
    .select({ id: clientUsers.id, username: clientUsers.username, client: clients.name })
    .from(clientUsers)
    .innerJoin(clients, eq(clients.id, clientUsers.clientId))
    .where(and(eq(clientUsers.clientId, author.clientId), eq(clientUsers.isActive, true), ne(clientUsers.id, author.clientUserId)));
  return rows.map((r): Mentionable => ({ ref: { kind: 'client', clientUserId: r.id }, name: r.username, group: r.client })).sort((a, b) => a.name.localeCompare(b.name));
}

/** The mentions given, checked against who the author may name (400 before anything is written); duplicates dropped. */
export async function checkMentions(mediaId: number, author: Viewer, refs: MentionRef[], internal = false): Promise<MentionRef[]> {
  if (!refs.length) return [];
  if (internal && refs.some((r) => r.kind !== 'staff')) throw new HttpError(400, INTERNAL_MENTION);
  const allowed = new Set((await mentionable(mediaId, author)).map((m) => keyOf(m.ref)));
  const unique = new Map(refs.map((r) => [keyOf(r), r]));
  for (const key of unique.keys()) if (!allowed.has(key)) throw new HttpError(400, MENTION_NOT_ALLOWED);
  return [...unique.values()];
}

/** Stored with the note, in its transaction. */
export async function storeMentions(tx: Tx, noteId: number, refs: MentionRef[]): Promise<void> {
  if (!refs.length) return;
  await tx.insert(noteMentions).values(refs.map((r) => (r.kind === 'staff' ? { timelineNoteId: noteId, userId: r.userId } : { timelineNoteId: noteId, clientUserId: r.clientUserId })));
}

/** Tells the people named (after the note is saved; a failure is logged, never thrown). */
export async function tellMentioned(note: { mediaId: number; versionNumber: number; ms: number; text: string; author: string }, refs: MentionRef[]): Promise<void> {
  if (!refs.length) return;
  try {
    const [item] = await db.select({ title: media.title }).from(media).where(eq(media.id, note.mediaId)).limit(1);
    if (!item) return;
    const title = oneLine(item.title, 120);
    const at = formatTimestamp(Math.floor(note.ms / 1000));
    const summary = `${oneLine(note.author, 80)} mentioned you on "${title}" v${note.versionNumber} at ${at}`;
    const subject = `${oneLine(note.author, 60)} mentioned you on ${title} v${note.versionNumber}`;
    // The note opens at its frame: the item's link with the version and time (as the bell's notes do).
    const link = (audience: 'staff' | 'client') => `${itemLink(audience, note.mediaId)}&at=${note.ms}`;
    const core = (audience: 'staff' | 'client') => [`${oneLine(note.author)} mentioned you in a note on "${title}" (version ${note.versionNumber}) at ${at}:`, '', `> ${firstLine(note.text)}`, '', `Open it: ${link(audience)}`].join('\n');
    await tellPeople({
      kind: 'mention',
      mediaId: note.mediaId,
      versionNumber: note.versionNumber,
      actor: note.author,
      summary,
      subject,
      core,
      path: (audience) => `${itemPath(audience, note.mediaId)}&at=${note.ms}`,
      note: { ms: note.ms, line: firstLine(note.text) },
      staffIds: refs.flatMap((r) => (r.kind === 'staff' ? [r.userId] : [])),
      clientUserIds: refs.flatMap((r) => (r.kind === 'client' ? [r.clientUserId] : [])),
    });
  } catch (error) {
    console.error(`Mentions on media ${note.mediaId} could not be told (the note itself is saved):`, error);
  }
}
