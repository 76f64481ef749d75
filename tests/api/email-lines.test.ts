// Emails written from people's text (issue 31, item 9) against a real local SMTP server: no
// name, title or comment can add a header or pass for a line of ours ("Bcc:", "Open it: <link>"),
// even from rows stored before the text rules (set here straight in the database) and outbox
// rows queued before this release.
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { Session, staffSession } from '../helpers/http.ts';
import { adminSession, createStaffUser, expectStatus } from '../helpers/accounts.ts';
import { createVideo } from '../helpers/portal-fixtures.ts';
import { until } from '../helpers/until.ts';
import { Mailbox, decodeHeader, parse, type Received } from '../helpers/mailbox.ts';

const SITE = 'https://studio.example';
const THIEF = 'thief@evil.example';
const PHISH = 'https://evil.example/login';

const mailbox = new Mailbox();
let server: TestServer;
let admin: Session;
let staff: { id: string; email: string };

beforeAll(async () => {
  await mailbox.listen();
  server = await startServer({
    env: {
      SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
      NOTIFY_POLL_MS: '100',
      SITE_URL: SITE,
      ENQUIRY_NOTIFY_TO: 'studio@example.test',
      ENQUIRY_NOTIFY_FROM: 'Studio Website <website@example.test>',
    },
  });
  admin = await adminSession(server.url);
  const u = await createStaffUser(server, { permissions: ['view:media'] });
  const session = await staffSession(server.url, u.username, u.password);
  await expectStatus(session.json('PUT', '/api/user/notifications', { mode: 'immediately' }));
  staff = { id: u.id, email: `${u.username}@studio.test` };
});
afterAll(async () => {
  await server?.stop();
  await mailbox.close();
});
beforeEach(() => mailbox.reset());

const mailTo = (address: string) =>
  until(`a message to ${address}`, async () => mailbox.received.find((m) => m.rcptTo.includes(address)) ?? null, 15_000);

/** Nothing was sent to anyone but `address`, and the message has no header naming the thief. */
function expectOnlyTo(mail: Received, address: string) {
  expect(mail.rcptTo).toEqual([address]);
  expect(mailbox.received.flatMap((m) => m.rcptTo)).not.toContain(THIEF);
  const { headers } = parse(mail.raw);
  expect(headers.has('bcc')).toBe(false);
  expect(headers.has('cc')).toBe(false);
  expect(decodeHeader(headers.get('subject') ?? '')).not.toMatch(/[\r\n]/);
}

const linesOf = (body: string) => body.split('\n');

test('a share comment from a guest name and media title stored with line breaks (old rows) writes no header and no line of ours', async () => {
  const item = await createVideo(server, { title: 'Teaser' });
  const link = await expectStatus(admin.json('POST', '/api/share-links', { name: 'Old rows', mediaIds: [item.id], allowComment: true }), 201);
  const token = new URL(link.url).pathname.split('/').pop()!;
  const guest = new Session(server.url);
  expect((await guest.get(`/s/${token}`)).status).toBe(200);
  // As rows written before the text rules could hold them.
  await server.sql.execute({ sql: 'UPDATE media SET title = ? WHERE id = ?', args: [`Teaser\r\nBcc: ${THIEF}`, item.id] });
  await server.sql.execute({
    sql: 'UPDATE share_visits SET guest_name = ? WHERE id = (SELECT max(id) FROM share_visits)',
    args: [`Eve\r\nBcc: ${THIEF}\r\nOpen it: ${PHISH}`],
  });
  const comment = await guest.json('POST', `/api/share/${token}/media/${item.id}/feedback`, { text: `Lovely.\n\nOpen it: ${PHISH}`, rating: 5 });
  expect(comment.status, JSON.stringify(comment.body)).toBe(201);

  const mail = await mailTo(staff.email);
  expectOnlyTo(mail, staff.email);
  const { headers, body } = parse(mail.raw);
  expect(decodeHeader(headers.get('subject')!)).toContain(`Teaser Bcc: ${THIEF} v1 from Eve Bcc: ${THIEF} Open it:`);
  const lines = linesOf(body);
  // The one "Open it:" line is ours; the comment's is quoted, so it reads as the guest's words.
  expect(lines.filter((l) => l.startsWith('Open it:'))).toEqual([`Open it: ${SITE}/admin/media?item=${item.id}`]);
  expect(lines).toContain(`> Open it: ${PHISH}`);
  expect(lines).toContain('> Lovely.');
  expect(lines.filter((l) => /^bcc:/i.test(l))).toEqual([]);
  expect(body).toContain(`Eve Bcc: ${THIEF} Open it: ${PHISH} left feedback on "Teaser Bcc: ${THIEF}"`);
});

test('an outbox row queued before this release with a line break in its subject is sent with the subject on one line', async () => {
  await server.sql.execute({
    sql: "INSERT INTO notification_outbox (recipient_kind, recipient_id, recipient_address, subject, body, status, next_attempt_at) VALUES ('staff', ?, ?, ?, 'An old message.', 'pending', 0)",
    args: [staff.id, staff.email, `Old news\r\nBcc: ${THIEF}`],
  });
  const mail = await mailTo(staff.email);
  expectOnlyTo(mail, staff.email);
  expect(decodeHeader(parse(mail.raw).headers.get('subject')!)).toBe(`Old news Bcc: ${THIEF}`);
});

test('an enquiry message cannot pass for the lines of the studio email: it is quoted', async () => {
  const res = await new Session(server.url).json('POST', '/api/contact', {
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace@example.test',
    message: `Hello.\nReply to this email to answer Grace, or open the inbox: ${PHISH}`,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const mail = await mailTo('studio@example.test');
  expectOnlyTo(mail, 'studio@example.test');
  const lines = linesOf(parse(mail.raw).body);
  expect(lines).toContain('> Hello.');
  expect(lines).toContain(`> Reply to this email to answer Grace, or open the inbox: ${PHISH}`);
  expect(lines.filter((l) => l.startsWith('Reply to this email'))).toEqual([`Reply to this email to answer Grace, or open the inbox: ${SITE}/admin/enquiries`]);
});
