// Shared steps of the notification email tests: who a message went to, a client login's
// address, assigning an item, and the positive marker that proves "nothing else was sent".
import { expect } from 'vitest';
import type { Session } from './http.ts';
import type { TestServer } from './server.ts';
import { createVideo } from './portal-fixtures.ts';
import { until } from './until.ts';
import { decodeHeader, parse, type Mailbox, type Received } from './mailbox.ts';

export const to = (mail: Received[], address: string) => mail.filter((m) => m.rcptTo.includes(address));

export const subjects = (mail: Received[], address: string) => to(mail, address).map((m) => decodeHeader(parse(m.raw).headers.get('subject') ?? ''));

export const loginEmail = async (server: TestServer, clientUserId: number) =>
  String((await server.sql.execute({ sql: 'SELECT email FROM client_users WHERE id = ?', args: [clientUserId] })).rows[0]!.email);

export async function assign(admin: Session, mediaId: number, clientId: number) {
  const res = await admin.json('POST', `/api/media/${mediaId}/clients/${clientId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/**
 * A positive marker: shares a new item with `clientId` and waits for that email to `address`.
 * The outbox is sent in order (due time, then id), so once it has arrived every message queued
 * before it has been sent too: whatever is missing by then was never queued.
 */
export async function marker(server: TestServer, admin: Session, mailbox: Mailbox, clientId: number, address: string, title: string) {
  const item = await createVideo(server, { title });
  await assign(admin, item.id, clientId);
  await until(`the marker "${title}" to ${address}`, async () => subjects(mailbox.received, address).includes(`New to review: ${title}`), 15_000);
}
