// Notifications (issue 17) against a real server and a real local SMTP server (smtp-server):
// who gets which email, their texts and links, the daily digest, SMTP down and back, the
// folder without SMTP_URL, the staff bell and the preference endpoints.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ROOT, startServer, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin, createStaffUser } from '../helpers/accounts.ts';
import { createVideo } from '../helpers/portal-fixtures.ts';
import { sampleVideo } from '../helpers/media-uploads.ts';
import { createUpload, patchUpload } from '../helpers/tus.ts';
import { until } from '../helpers/until.ts';
import { Mailbox, parse, type Received } from '../helpers/mailbox.ts';
import { assign, loginEmail, marker, to } from '../helpers/notify.ts';

const SITE = 'https://studio.example';
const FROM = 'Studio Reviews <reviews@studio.example>';
const FAST = { NOTIFY_POLL_MS: '100', NOTIFY_RETRY_BASE_MS: '200', SITE_URL: SITE };

type Login = Awaited<ReturnType<typeof createClientWithLogin>>;

const outboxOf = async (server: TestServer, where: string, args: (string | number)[] = []) =>
  (await server.sql.execute({ sql: `SELECT * FROM notification_outbox WHERE ${where} ORDER BY id`, args })).rows;

/** Waits for `n` messages to `address` (digests to other people may arrive meanwhile). */
const mailTo = (mailbox: Mailbox, address: string, n = 1, timeoutMs = 15_000) =>
  until(`${n} message(s) to ${address}`, async () => (to(mailbox.received, address).length >= n ? to(mailbox.received, address) : null), timeoutMs);

async function setMode(s: Session, url: string, mode: string) {
  const res = await s.json('PUT', url, { mode });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ mode });
}

describe('with SMTP_URL', () => {
  const mailbox = new Mailbox();
  let server: TestServer;
  let admin: Session;
  let portal: Session;
  let client: Login;
  let clientAddress: string;
  const staff: Record<'on' | 'off' | 'noView' | 'digest', { email: string; session: Session }> = {} as never;

  beforeAll(async () => {
    await mailbox.listen();
    server = await startServer({
      env: { ...FAST, SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`, NOTIFY_FROM: FROM, NOTIFY_DIGEST_INTERVAL_MS: '4000' },
    });
    admin = await staffSession(server.url, 'admin', 'admin-password-123');
    client = await createClientWithLogin(server, { name: 'Harbour Films' });
    clientAddress = await loginEmail(server, client.clientUserId);
    portal = await clientSession(server.url, client.username, client.password);
    const make = async (key: keyof typeof staff, permissions: string[], mode: string | null) => {
      const u = await createStaffUser(server, { permissions });
      const session = await staffSession(server.url, u.username, u.password);
      if (mode) await setMode(session, '/api/user/notifications', mode);
      staff[key] = { email: `${u.username}@studio.test`, session };
    };
    await make('on', ['view:media'], 'immediately');
    await make('off', ['view:media'], null); // staff are off until they opt in
    await make('noView', ['upload:media'], 'immediately');
    await make('digest', ['view:media'], 'digest');
  });
  afterAll(async () => {
    await server?.stop();
    await mailbox.close();
  });
  beforeEach(() => mailbox.reset());

  test('assigning media emails the client login: recipient, sender, subject and a link to the item', async () => {
    const item = await createVideo(server, { title: 'Harbour Launch Film' });
    await assign(admin, item.id, client.clientId);
    const [mail] = await mailTo(mailbox, clientAddress);
    expect(mail!.rcptTo).toEqual([clientAddress]);
    expect(mail!.mailFrom).toBe('reviews@studio.example');
    const { headers, body } = parse(mail!.raw);
    expect(headers.get('subject')).toBe('New to review: Harbour Launch Film');
    expect(headers.get('content-type')).toMatch(/^text\/plain/);
    expect(body).toContain('The studio has shared "Harbour Launch Film" (version 1) with you for review.');
    expect(body).toContain(`${SITE}/client/dashboard?item=${item.id}`);
    // The row is marked sent after the SMTP server took the message: on a database server that
    // write can land after the mail is in the box.
    const rows = await until('the outbox row marked sent', async () => {
      const r = await outboxOf(server, 'event_id = (SELECT max(id) FROM notification_events WHERE media_id = ?)', [item.id]);
      return r.every((x) => x.status !== 'sending') && r;
    }, 10_000);
    expect(rows.map((r) => [r.recipient_address, r.status])).toEqual([[clientAddress, 'sent']]);

    // Assigning again changes nothing and sends nothing: a later message to the same login
    // arrives, and it is the only other one.
    expect((await admin.json('POST', `/api/media/${item.id}/clients/${client.clientId}`)).status).toBe(200);
    await marker(server, admin, mailbox, client.clientId, clientAddress, 'Marker after assigning again');
    expect(to(mailbox.received, clientAddress).map((m) => parse(m.raw).headers.get('subject'))).toEqual(['New to review: Harbour Launch Film', 'New to review: Marker after assigning again']);
  });

  test('setting an item\'s own client in the edit form is an assignment too', async () => {
    const item = await createVideo(server, { title: 'Edit Form Film' });
    expect((await admin.json('PUT', `/api/media/${item.id}`, { clientId: client.clientId })).status).toBe(200);
    const [mail] = await mailTo(mailbox, clientAddress);
    expect(mail!.rcptTo).toEqual([clientAddress]);
    expect(parse(mail!.raw).headers.get('subject')).toBe('New to review: Edit Form Film');
  });

  test('a new version emails every assigned client login with the version number and link', async () => {
    const other = await createClientWithLogin(server, { name: 'Second Client' });
    const otherAddress = await loginEmail(server, other.clientUserId);
    const item = await createVideo(server, { title: 'Versioned Film', clientId: client.clientId, assign: [other.clientId] });
    const data = sampleVideo('mp4');
    const { res, id } = await createUpload(admin, data.length, { filename: 'cut-2.mp4' });
    expect(res.status).toBe(201);
    expect((await patchUpload(admin, id!, 0, data)).status).toBe(204);
    const added = await admin.json('POST', `/api/media/${item.id}/versions`, { uploadId: id });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    await mailTo(mailbox, clientAddress);
    await mailTo(mailbox, otherAddress);
    const mail = [...to(mailbox.received, clientAddress), ...to(mailbox.received, otherAddress)];
    expect(mail.flatMap((m) => m.rcptTo).sort()).toEqual([clientAddress, otherAddress].sort());
    for (const m of mail) {
      const { headers, body } = parse(m.raw);
      expect(headers.get('subject')).toBe('New version of Versioned Film: v2');
      expect(body).toContain('A new version of "Versioned Film" is ready for you: version 2.');
      expect(body).toContain(`${SITE}/client/dashboard?item=${item.id}`);
    }
  });

  const clientActions = [
    {
      kind: 'feedback',
      act: (p: Session, mediaId: number) => p.json('POST', `/api/client/media/${mediaId}/feedback`, { mediaId, feedbackText: 'Lovely colours, shorter intro please', rating: 4 }),
      status: 201,
      subject: (title: string) => [`Feedback on ${title} v1 from `],
      body: ['left feedback on', 'in the client portal', 'Rating: 4 out of 5', 'Lovely colours, shorter intro please'],
    },
    {
      kind: 'note',
      act: (p: Session, mediaId: number) => p.json('POST', `/api/client/media/${mediaId}/timeline-notes`, { mediaId, timestampSeconds: 2, noteText: 'Logo too small here' }),
      status: 201,
      subject: (title: string) => [`Timeline note on ${title} v1 from `],
      body: ['left a timeline note on', 'At 00:02: Logo too small here'],
    },
    {
      kind: 'approval',
      act: (p: Session, mediaId: number) => p.json('PUT', `/api/client/media/${mediaId}/approval`, { status: 'changes_requested', note: 'Swap the music', version: 1 }),
      status: 200,
      subject: (title: string) => [`Approval decision on ${title} v1 from `, ': Changes requested: Swap the music'],
      body: ['made an approval decision on', 'Changes requested: Swap the music'],
    },
  ];

  test.each(clientActions)('client $kind emails opted-in staff with view:media only, with who, what and a link', async (c) => {
    const title = `Film for ${c.kind}`;
    const item = await createVideo(server, { title, clientId: client.clientId });
    const res = await c.act(portal, item.id);
    expect(res.status, JSON.stringify(res.body)).toBe(c.status);
    const [mail] = await mailTo(mailbox, staff.on.email);
    expect(mail!.rcptTo).toEqual([staff.on.email]);
    const { headers, body } = parse(mail!.raw);
    for (const part of c.subject(title)) expect(headers.get('subject')).toContain(part);
    expect(headers.get('subject')).toContain(client.username);
    expect(body).toContain('Harbour Films');
    for (const text of c.body) expect(body).toContain(text);
    expect(body).toContain(`${SITE}/admin/media?item=${item.id}`);
    // The outbox holds exactly the opted-in recipients: 'off' staff, staff without view:media
    // and the admin (off by default) get no row; the digest reader's row is held.
    // This server runs a digest every 4 s, so the held row may already be in one ('digested'):
    // either way it was not sent on its own.
    // The mail arrives before the sender marks its row sent (it writes 'sent' once the SMTP
    // server has answered): wait for that write, not for time.
    const rowsOf = () => outboxOf(server, 'event_id = (SELECT max(id) FROM notification_events WHERE media_id = ? AND kind = ?)', [item.id, c.kind]);
    const rows = await until('the outbox rows settled', async () => {
      const r = await rowsOf();
      const mine = r.find((x) => x.recipient_address === staff.on.email);
      return mine && (mine.status === 'sending' || mine.status === 'pending') ? null : r;
    });
    const held = (status: string) => (status === 'digested' ? 'held' : status);
    expect(rows.map((r) => [r.recipient_address, held(String(r.status))]).sort()).toEqual(
      [
        [staff.on.email, 'sent'],
        [staff.digest.email, 'held'],
      ].sort(),
    );
    // A message queued after this event has arrived: nothing else for this event is on its way.
    await marker(server, admin, mailbox, client.clientId, clientAddress, `Marker after ${c.kind}`);
    expect(to(mailbox.received, staff.off.email)).toHaveLength(0);
    expect(to(mailbox.received, staff.noView.email)).toHaveLength(0);
    expect(to(mailbox.received, staff.on.email)).toHaveLength(1);
  });

  test('a client login in mode off gets nothing; switching back on resumes', async () => {
    const quiet = await createClientWithLogin(server, { name: 'Quiet Client' });
    const quietPortal = await clientSession(server.url, quiet.username, quiet.password);
    await setMode(quietPortal, '/api/client/notifications', 'off');
    expect((await quietPortal.json('GET', '/api/client/notifications')).body).toMatchObject({ mode: 'off' });
    const address = await loginEmail(server, quiet.clientUserId);
    const first = await createVideo(server, { title: 'Unheard Film' });
    await assign(admin, first.id, quiet.clientId);
    expect(await outboxOf(server, 'recipient_address = ?', [address])).toHaveLength(0);

    await setMode(quietPortal, '/api/client/notifications', 'immediately');
    const second = await createVideo(server, { title: 'Heard Film' });
    await assign(admin, second.id, quiet.clientId);
    const [mail] = await mailTo(mailbox, address);
    expect(mail!.rcptTo).toEqual([address]);
    // The first message to this login is the one after switching on (sent in order): the item
    // shared while off was never sent, not merely late.
    expect(parse(mail!.raw).headers.get('subject')).toBe('New to review: Heard Film');
    await marker(server, admin, mailbox, quiet.clientId, address, 'Marker after switching on');
    expect(to(mailbox.received, address).map((m) => parse(m.raw).headers.get('subject'))).toEqual(['New to review: Heard Film', 'New to review: Marker after switching on']);
  });

  test('digest mode: several events become exactly one message listing them all', async () => {
    const reader = await createClientWithLogin(server, { name: 'Digest Client' });
    const readerPortal = await clientSession(server.url, reader.username, reader.password);
    await setMode(readerPortal, '/api/client/notifications', 'digest');
    const address = await loginEmail(server, reader.clientUserId);
    // Start right after a digest slot begins (slots are 4 s, aligned to the clock), so the
    // three events all fall inside one slot.
    await until('the start of a digest slot', async () => Date.now() % 4000 > 300 && Date.now() % 4000 < 900, 10_000);
    const titles = ['Digest One', 'Digest Two', 'Digest Three'];
    const ids: number[] = [];
    for (const title of titles) {
      const item = await createVideo(server, { title });
      ids.push(item.id);
      await assign(admin, item.id, reader.clientId);
    }
    expect((await outboxOf(server, 'recipient_address = ?', [address])).map((r) => r.status)).toEqual(['held', 'held', 'held']);
    expect(to(mailbox.received, address)).toHaveLength(0);

    await until('the digest', async () => to(mailbox.received, address).length > 0, 10_000);
    const mail = to(mailbox.received, address);
    expect(mail).toHaveLength(1);
    const { headers, body } = parse(mail[0]!.raw);
    expect(headers.get('subject')).toBe('Daily digest: 3 updates');
    for (const [i, title] of titles.entries()) {
      expect(body).toContain(`New to review: ${title}`);
      expect(body).toContain(`${SITE}/client/dashboard?item=${ids[i]}`);
    }
    // The SMTP server has the message before the sender records it as sent: wait for the record.
    const rows = await until('the digest recorded as sent', async () => {
      const all = await outboxOf(server, 'recipient_address = ?', [address]);
      return all.some((r) => r.event_id === null && r.status !== 'sending') ? all : null;
    }, 10_000);
    const digest = rows.find((r) => r.event_id === null)!;
    expect(digest).toMatchObject({ status: 'sent', subject: 'Daily digest: 3 updates' });
    expect(rows.filter((r) => r.event_id !== null).map((r) => [r.status, r.digest_id])).toEqual(titles.map(() => ['digested', digest.id]));

    // A later slot: a fourth event makes a second digest, and it lists that event alone (the
    // three are not sent again, in it or on their own).
    const fourth = await createVideo(server, { title: 'Digest Four' });
    await assign(admin, fourth.id, reader.clientId);
    const both = await mailTo(mailbox, address, 2, 10_000);
    expect(both).toHaveLength(2);
    const second = parse(both[1]!.raw);
    expect(second.headers.get('subject')).toBe('Daily digest: 1 update');
    expect(second.body).toContain('New to review: Digest Four');
    for (const title of titles) expect(second.body).not.toContain(title);
  });

  test('the staff digest reader gets the client events held for them in digests, never one by one', async () => {
    const held = await outboxOf(server, 'recipient_address = ? AND event_id IS NOT NULL', [staff.digest.email]);
    expect(held).toHaveLength(clientActions.length);
    await until('every held row digested', async () => (await outboxOf(server, "recipient_address = ? AND status = 'held'", [staff.digest.email])).length === 0, 10_000);
    const digests = await until('the staff digests sent', async () => {
      const rows = await outboxOf(server, "recipient_address = ? AND event_id IS NULL", [staff.digest.email]);
      return rows.length && rows.every((r) => r.status === 'sent') ? rows : null;
    }, 10_000);
    // (Earlier tests cleared the mailbox, so the sent rows are the record here.)
    const bodies = digests.map((r) => String(r.body)).join('\n');
    for (const c of clientActions) expect(bodies).toContain(`Film for ${c.kind}`);
    for (const r of digests) expect(String(r.subject)).toMatch(/^Daily digest: \d+ updates?$/);
    expect(held.every((r) => digests.some((d) => d.id === r.digest_id) || r.status === 'held')).toBe(true);
  });

  describe('the bell', () => {
    const bell = (s: Session) => s.json('GET', '/api/notifications');

    test.each([
      ['signed out', 401, 'anonymous'],
      ['a client session', 401, 'client'],
      ['staff without view:media', 403, 'noView'],
      ['staff with view:media', 200, 'on'],
    ] as const)('GET and POST seen: %s answers %i', async (_name, status, who) => {
      const s = who === 'anonymous' ? new Session(server.url) : who === 'client' ? portal : staff[who].session;
      const got = await bell(s);
      expect(got.status).toBe(status);
      const seen = await s.json('POST', '/api/notifications/seen');
      expect(seen.status).toBe(status);
      if (status !== 200) {
        expect(typeof got.body.message).toBe('string');
        expect(typeof seen.body.message).toBe('string');
      }
    });

    test('a new account starts with an empty bell: what happened before it existed is neither listed nor unread (issue 53)', async () => {
      for (let i = 0; i < 9; i++) {
        await server.sql.execute({
          sql: `INSERT INTO notification_events (kind, media_id, version_number, actor, summary, path, audience) VALUES ('note', NULL, 1, 'Seeder', ?, '/admin/media', 'staff')`,
          args: [`Before the account ${i}`],
        });
      }
      const fresh = await createStaffUser(server, { permissions: ['view:media'] });
      const s = await staffSession(server.url, fresh.username, fresh.password);
      expect((await bell(s)).body).toMatchObject({ unread: 0, events: [] });
      // An older account still has them.
      expect((await bell(staff.on.session)).body.events.some((e: any) => e.summary === 'Before the account 8')).toBe(true);
      await server.sql.execute(`INSERT INTO notification_events (kind, summary, path, audience) VALUES ('note', 'After the account', '/admin/media', 'staff')`);
      const after = (await bell(s)).body;
      expect(after.unread).toBe(1);
      expect(after.events.map((e: any) => e.summary)).toEqual(['After the account']);
    });

    test('lists the newest 50 staff events with an unread count; seen resets it; a new event counts again', async () => {
      const fresh = await createStaffUser(server, { permissions: ['view:media'] });
      const s = await staffSession(server.url, fresh.username, fresh.password);
      for (let i = 0; i < 55; i++) {
        await server.sql.execute({
          sql: `INSERT INTO notification_events (kind, media_id, version_number, actor, summary, path, audience) VALUES ('note', NULL, 1, 'Seeder', ?, '/admin/media', 'staff')`,
          args: [`Seeded event ${i}`],
        });
      }
      // Client events never reach the bell.
      await server.sql.execute(`INSERT INTO notification_events (kind, summary, path, audience) VALUES ('assigned', 'Client-only event', '/client/dashboard', 'client')`);
      const staffTotal = Number(
        (await server.sql.execute({ sql: `SELECT count(*) AS n FROM notification_events WHERE audience = 'staff' AND created_at >= (SELECT created_at FROM users WHERE id = ?)`, args: [fresh.id] })).rows[0]!.n,
      );
      const before = await bell(s);
      expect(before.status).toBe(200);
      expect(before.body.events).toHaveLength(50);
      expect(before.body.events[0].summary).toBe('Seeded event 54');
      expect(before.body.events.every((e: any) => e.unread)).toBe(true);
      expect(before.body.events.some((e: any) => e.summary === 'Client-only event')).toBe(false);
      expect(before.body.unread).toBe(staffTotal);

      const seen = await s.json('POST', '/api/notifications/seen');
      expect(seen.body.unread).toBe(0);
      expect((await bell(s)).body.unread).toBe(0);
      // Another user's unread count is their own.
      expect((await bell(staff.on.session)).body.unread).toBeGreaterThan(0);

      const item = await createVideo(server, { title: 'Bell Film', clientId: client.clientId });
      expect((await portal.json('POST', `/api/client/media/${item.id}/feedback`, { mediaId: item.id, feedbackText: 'Great', rating: 5 })).status).toBe(201);
      const after = (await bell(s)).body;
      expect(after.unread).toBe(1);
      expect(after.events[0]).toMatchObject({ kind: 'feedback', unread: true, mediaId: item.id, versionNumber: 1, path: `/admin/media?item=${item.id}` });
      expect(after.events[0].summary).toContain('left feedback on "Bell Film" v1');
      expect(after.events[1].unread).toBe(false);
    });
  });

  describe('preference endpoints', () => {
    test.each([
      ['/api/user/notifications', 'staff'],
      ['/api/client/notifications', 'client'],
    ] as const)('%s refuses the other kind of session and signed-out callers with 401', async (url, kind) => {
      const wrong = kind === 'staff' ? portal : staff.on.session;
      for (const s of [new Session(server.url), wrong]) {
        expect((await s.json('GET', url)).status).toBe(401);
        const put = await s.json('PUT', url, { mode: 'off' });
        expect(put.status).toBe(401);
        expect(typeof put.body.message).toBe('string');
      }
    });

    const bad: [string, unknown][] = [
      ['an unknown mode', { mode: 'sometimes' }],
      ['no mode', {}],
      ['a number', { mode: 1 }],
      ['an extra field', { mode: 'off', extra: true }],
      ['a list', ['off']],
    ];
    test.each(['/api/user/notifications', '/api/client/notifications'].flatMap((url) => bad.map(([name, body]) => [url, name, body] as const)))(
      '%s with %s answers 400 naming the problem and changes nothing',
      async (url, _name, body) => {
        const s = url.startsWith('/api/client') ? portal : staff.on.session;
        const before = (await s.json('GET', url)).body;
        const res = await s.json('PUT', url, body);
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(/mode|body|Unrecognized|expected/i);
        expect((await s.json('GET', url)).body).toEqual(before);
      },
    );

    test('staff default to off and can choose each mode', async () => {
      const u = await createStaffUser(server, { permissions: [] });
      const s = await staffSession(server.url, u.username, u.password);
      expect((await s.json('GET', '/api/user/notifications')).body).toEqual({ mode: 'off', address: `${u.username}@studio.test` });
      for (const mode of ['digest', 'immediately', 'off']) {
        await setMode(s, '/api/user/notifications', mode);
        expect((await s.json('GET', '/api/user/notifications')).body).toMatchObject({ mode });
      }
    });
  });
});

/** A port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

describe('SMTP down', () => {
  test('messages stay in the outbox with attempts and the error, and go out once the server is back', async () => {
    const port = await freePort();
    const server = await startServer({ env: { ...FAST, SMTP_URL: `smtp://127.0.0.1:${port}`, NOTIFY_RETRY_BASE_MS: '300', NOTIFY_MAX_ATTEMPTS: '10' } });
    const mailbox = new Mailbox();
    try {
      const admin = await staffSession(server.url, 'admin', 'admin-password-123');
      const client = await createClientWithLogin(server);
      const item = await createVideo(server, { title: 'Queued Film' });
      await assign(admin, item.id, client.clientId);
      const row = await until('two failed attempts', async () => {
        const [r] = await outboxOf(server, "recipient_kind = 'client'");
        return r && Number(r.attempts) >= 2 && r.status === 'pending' ? r : null;
      }, 15_000);
      expect(String(row.last_error)).toMatch(/ECONNREFUSED|connect/i);
      expect(Number(row.next_attempt_at)).toBeGreaterThan(Date.now() - 5000);
      expect(server.output()).toMatch(/notification \d+ to .*: attempt 1 failed, will retry/);

      await mailbox.listen(port);
      const [mail] = await mailbox.waitForMessages(1, 20_000);
      expect(mail!.rcptTo).toEqual([await loginEmail(server, client.clientUserId)]);
      expect(parse(mail!.raw).headers.get('subject')).toBe('New to review: Queued Film');
      const sent = await until('the row marked sent', async () => (await outboxOf(server, "recipient_kind = 'client' AND status = 'sent'"))[0], 5000);
      expect(sent!.sent_at).not.toBeNull();
      expect(mailbox.received).toHaveLength(1);
    } finally {
      await server.stop();
      await mailbox.close();
    }
  });

  test('after the last attempt the row is kept as failed with its error', async () => {
    const port = await freePort();
    const server = await startServer({ env: { ...FAST, SMTP_URL: `smtp://127.0.0.1:${port}`, NOTIFY_RETRY_BASE_MS: '100', NOTIFY_MAX_ATTEMPTS: '3' } });
    try {
      const admin = await staffSession(server.url, 'admin', 'admin-password-123');
      const client = await createClientWithLogin(server);
      const item = await createVideo(server, { title: 'Undeliverable Film' });
      await assign(admin, item.id, client.clientId);
      const row = await until('the row to fail', async () => (await outboxOf(server, "status = 'failed'"))[0], 15_000);
      expect(row).toMatchObject({ attempts: 3, subject: 'New to review: Undeliverable Film' });
      expect(String(row.last_error)).toMatch(/ECONNREFUSED|connect/i);
      // Logged just after the row is marked failed: wait for the line.
      await until('the giving-up line', async () => /failed 3 times, giving up \(kept in the outbox\)/.test(server.output()), 10_000);
    } finally {
      await server.stop();
    }
  });
});

describe('without SMTP_URL', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: FAST });
  });
  afterAll(() => server?.stop());

  test('each message is written to the folder as an .eml file, logged, and kept for a later resend', async () => {
    const admin = await staffSession(server.url, 'admin', 'admin-password-123');
    const client = await createClientWithLogin(server);
    const address = await loginEmail(server, client.clientUserId);
    const item = await createVideo(server, { title: 'Folder Film' });
    await assign(admin, item.id, client.clientId);
    const row = await until('the file', async () => (await outboxOf(server, "status = 'written'"))[0], 10_000);
    const file = String(row.file_path);
    expect(path.dirname(file)).toBe(path.join(server.dir, 'outbox'));
    const { headers, body } = parse(fs.readFileSync(file, 'utf8'));
    expect(headers.get('to')).toBe(address);
    expect(headers.get('subject')).toBe('New to review: Folder Film');
    expect(body).toContain(`${SITE}/client/dashboard?item=${item.id}`);
    // Logged once the row is marked written (the order of the two is not this test's business).
    const logged = `no SMTP_URL: notification ${row.id} to ${address} written to ${file}`;
    await until('the log line', async () => server.output().includes(logged), 10_000);

    // `npm run notify:resend` queues it again (here still without SMTP: it is written again).
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/notify-resend.mjs')], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: server.databaseUrl, MEDIA_DIR: server.mediaDir, DEMO_CONTENT: 'false', ADMIN_PASSWORD: 'admin-password-123' },
    });
    expect(stdout).toContain('1 notification(s) queued to be sent again');
    await until('the second write', async () => {
      const [r] = await outboxOf(server, 'id = ?', [Number(row.id)]);
      return r!.status === 'written' && server.output().split(`notification ${row.id} to`).length === 3;
    }, 10_000);
  });
});
