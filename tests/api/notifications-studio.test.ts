// Emails that read like the studio's (issue 32), against a real server and a real local SMTP
// server (smtp-server): the From name is the branding company name, every email ends with the
// Contact Info signature, a new video version is announced only once it is ready to play (and
// exactly once, not at all while its conversion fails), staff are asked once whether they want
// emails, the mode answers say where mail goes, "Mark all read", and note entries in the bell.
// The web server runs with WORKER=off; a worker process (scripts/worker.mjs) is started by the
// test when conversions may happen.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { spawnApp } from '../helpers/processes.ts';
import { scratchDir } from '../helpers/scratch.ts';
import { clientSession, staffSession, type Session } from '../helpers/http.ts';
import { createClientWithLogin, createStaffUser } from '../helpers/accounts.ts';
import { createImage, createVideo, sampleImage } from '../helpers/portal-fixtures.ts';
import { sampleVideo } from '../helpers/media-uploads.ts';
import { createUpload, patchUpload } from '../helpers/tus.ts';
import { until } from '../helpers/until.ts';
import { Mailbox, decodeHeader, parse, type Received } from '../helpers/mailbox.ts';
import { assign, loginEmail, marker, subjects, to } from '../helpers/notify.ts';

const SITE = 'https://harbour.example';
const COMPANY = 'Brïght Harbour Films, Ltd';
const FAST = { NOTIFY_POLL_MS: '100', NOTIFY_RETRY_BASE_MS: '200', SITE_URL: SITE };

/** An ffmpeg that answers -version (so the worker takes jobs) and fails every conversion. */
function brokenFfmpeg(): string {
  const dir = scratchDir('studio-broken-ffmpeg-');
  const file = path.join(dir, 'ffmpeg');
  fs.writeFileSync(file, '#!/bin/sh\nif [ "$1" = "-version" ]; then echo "ffmpeg version broken-for-tests"; exit 0; fi\necho "conversion refused for the test" >&2\nexit 1\n', { mode: 0o755 });
  return file;
}

/** The text body, its UTF-8 decoded (parse() leaves quoted-printable bytes as Latin-1). */
const bodyOf = (m: Received) => Buffer.from(parse(m.raw).body, 'latin1').toString('utf8');

/** The From header's display name (decoded, unquoted) and address. */
function fromOf(m: Received) {
  const value = decodeHeader(parse(m.raw).headers.get('from') ?? '');
  const match = /^(.*?)\s*<([^>]+)>$/.exec(value);
  return { name: (match?.[1] ?? '').replace(/^"|"$/g, '').replace(/\\(.)/g, '$1'), address: match?.[2] ?? value };
}

async function setStudio(server: TestServer) {
  await server.sql.execute({
    sql: `INSERT INTO branding_settings (id, company_name) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET company_name = excluded.company_name`,
    args: [COMPANY],
  });
  await server.sql.execute({
    sql: `INSERT INTO contact_info (id, contact_email, contact_phone, contact_address) VALUES (1, ?, ?, ?)
          ON CONFLICT(id) DO UPDATE SET contact_email = excluded.contact_email, contact_phone = excluded.contact_phone, contact_address = excluded.contact_address`,
    args: ['hello@harbour.example', '01632 960 123', '4 Quay Street\nBristol BS1 4DJ'],
  });
}

describe('with SMTP_URL and no NOTIFY_FROM', () => {
  const mailbox = new Mailbox();
  let server: TestServer;
  let admin: Session;
  let client: Awaited<ReturnType<typeof createClientWithLogin>>;
  let address: string;
  const workers: ChildProcess[] = [];

  /** A worker process on the server's database (FFMPEG_PATH may be broken on purpose). */
  async function startWorker(env: Record<string, string> = {}) {
    let log = '';
    const w = spawnApp('scripts/worker.mjs', [], {
      ...process.env,
      DATABASE_URL: server.databaseUrl,
      MEDIA_DIR: server.mediaDir,
      DEMO_CONTENT: 'false',
      ADMIN_PASSWORD: 'admin-password-123',
      JOB_POLL_MS: '50',
      JOB_RETRY_BASE_MS: '0',
      SITE_URL: SITE,
      ...env,
    });
    w.stdout!.on('data', (c: Buffer) => (log += c.toString()));
    w.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    workers.push(w);
    await until('the worker', async () => log.includes('STUDIO_WORKER_READY'), 60_000);
    return w;
  }
  const stopWorker = (w: ChildProcess) => new Promise<void>((r) => (w.exitCode !== null ? r() : (w.once('exit', () => r()), w.kill('SIGTERM'))));

  beforeAll(async () => {
    await mailbox.listen();
    server = await startServer({
      env: { ...FAST, WORKER: 'off', SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`, ENQUIRY_NOTIFY_FROM: 'Website Form <website@harbour.example>' },
    });
    await setStudio(server);
    admin = await staffSession(server.url, 'admin', 'admin-password-123');
    client = await createClientWithLogin(server, { name: 'Quay Clients' });
    address = await loginEmail(server, client.clientUserId);
  });
  afterAll(async () => {
    for (const w of workers) await stopWorker(w);
    await server?.stop();
    await mailbox.close();
  });
  beforeEach(() => mailbox.reset());

  test('the From name is the branding company name (the address stays as configured) and the studio signature ends the message', async () => {
    const item = await createVideo(server, { title: 'Signed Film' });
    await assign(admin, item.id, client.clientId);
    await until('the email', async () => to(mailbox.received, address).length > 0, 15_000);
    const [mail] = to(mailbox.received, address);
    expect(fromOf(mail!)).toEqual({ name: COMPANY, address: 'website@harbour.example' });
    expect(mail!.mailFrom).toBe('website@harbour.example');
    const body = bodyOf(mail!);
    const signature = [COMPANY, 'Phone: 01632 960 123', 'Email: hello@harbour.example', 'Address: 4 Quay Street, Bristol BS1 4DJ', SITE].join('\n');
    expect(body).toContain(`${SITE}/client/dashboard?item=${item.id}\n\n${signature}\n\n--\nYou get these emails because`);

    // A changed company name applies to the next message (read when sending).
    await server.sql.execute({ sql: 'UPDATE branding_settings SET company_name = ? WHERE id = 1', args: ['Renamed Studio'] });
    try {
      const second = await createVideo(server, { title: 'Renamed Film' });
      await assign(admin, second.id, client.clientId);
      await until('the second email', async () => to(mailbox.received, address).length > 1, 15_000);
      const latest = to(mailbox.received, address)[1]!;
      expect(fromOf(latest).name).toBe('Renamed Studio');
      expect(bodyOf(latest)).toContain('\n\nRenamed Studio\nPhone: 01632 960 123');
    } finally {
      await server.sql.execute({ sql: 'UPDATE branding_settings SET company_name = ? WHERE id = 1', args: [COMPANY] });
    }
  });

  // Issue 40, item 8: staff type the company name; in the From header it must stay one quoted
  // name before the configured address, never read as a second mailbox or an encoded word.
  test.each([
    ['quotes, angle brackets and a comma', 'Ann "X" <evil@x.test>, Ltd', '"Ann X evil@x.test, Ltd" <website@harbour.example>'],
    ['an encoded word', '=?UTF-8?B?ZXZpbEB4LnRlc3Q=?= Films', 'Films <website@harbour.example>'],
    ['an encoded word that a removal would assemble', '=?=?UTF-8?Q?x?=UTF-8?Q?evil@x.test?= Films', '"= ?UTF-8?Q?evil@x.test?= Films" <website@harbour.example>'],
  ])('a company name with %s arrives as one mailbox with the configured address', async (_what, company, header) => {
    await server.sql.execute({ sql: 'UPDATE branding_settings SET company_name = ? WHERE id = 1', args: [company] });
    try {
      const item = await createVideo(server, { title: `Sender ${company}` });
      await assign(admin, item.id, client.clientId);
      await until('the email', async () => to(mailbox.received, address).length > 0, 15_000);
      const raw = to(mailbox.received, address)[0]!.raw;
      // The raw header as the SMTP server received it (folded lines joined).
      const from = /^From: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)![1]!.replace(/\r?\n[ \t]+/g, ' ');
      expect(from).toBe(header);
      expect(from.match(/</g)).toHaveLength(1);
      expect(from).toMatch(/<website@harbour\.example>$/);
      expect(to(mailbox.received, address)[0]!.mailFrom).toBe('website@harbour.example');
    } finally {
      await server.sql.execute({ sql: 'UPDATE branding_settings SET company_name = ? WHERE id = 1', args: [COMPANY] });
    }
  });

  test('a new video version is emailed once it is ready to play: not while queued, not while its conversion fails, exactly once', { timeout: 180_000 }, async () => {
    const item = await createVideo(server, { title: 'Ready Film', clientId: client.clientId });
    const data = sampleVideo('mp4');
    const { res, id } = await createUpload(admin, data.length, { filename: 'cut-2.mp4' });
    expect(res.status).toBe(201);
    expect((await patchUpload(admin, id!, 0, data)).status).toBe(204);
    const added = await admin.json('POST', `/api/media/${item.id}/versions`, { uploadId: id });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.version.number).toBe(2);
    const versionId = added.body.version.id as number;
    const status = async () => String((await server.sql.execute({ sql: 'SELECT processing_status FROM media_versions WHERE id = ?', args: [versionId] })).rows[0]!.processing_status);
    const newVersion = 'New version of Ready Film: v2';

    // Uploaded but not converted (no worker runs): a later message arrives, this one does not.
    expect(await status()).toBe('queued');
    await marker(server, admin, mailbox, client.clientId, address, 'Marker while queued');
    expect(subjects(mailbox.received, address)).not.toContain(newVersion);
    expect((await server.sql.execute({ sql: "SELECT count(*) AS n FROM notification_events WHERE kind = 'new_version' AND media_id = ?", args: [item.id] })).rows[0]!.n).toBe(0);

    // A worker whose ffmpeg fails: every attempt fails, the version is failed, nothing is sent.
    const broken = await startWorker({ FFMPEG_PATH: brokenFfmpeg() });
    await until('the conversion to fail', async () => (await status()) === 'failed', 60_000);
    await stopWorker(broken);
    await marker(server, admin, mailbox, client.clientId, address, 'Marker after the failure');
    expect(subjects(mailbox.received, address)).not.toContain(newVersion);

    // Converted again by a working worker: ready, and now the clients hear of it.
    await startWorker();
    expect((await admin.json('POST', `/api/media/${item.id}/reprocess`)).status).toBe(202);
    await until('the new version email', async () => subjects(mailbox.received, address).includes(newVersion), 90_000);
    expect(await status()).toBe('ready');
    const mail = to(mailbox.received, address).find((m) => decodeHeader(parse(m.raw).headers.get('subject')!) === newVersion)!;
    expect(parse(mail.raw).body).toContain('A new version of "Ready Film" is ready for you: version 2.');
    expect(parse(mail.raw).body).toContain(`${SITE}/client/dashboard?item=${item.id}`);

    // Converted once more (Process again): ready again, but it was announced already.
    expect((await admin.json('POST', `/api/media/${item.id}/reprocess`)).status).toBe(202);
    await until('ready again', async () => {
      const job = (await server.sql.execute({ sql: "SELECT status FROM jobs WHERE version_id = ? AND kind = 'transcode'", args: [versionId] })).rows[0];
      return job?.status === 'done' && (await status()) === 'ready';
    }, 90_000);
    await marker(server, admin, mailbox, client.clientId, address, 'Marker after converting again');
    expect(subjects(mailbox.received, address).filter((s) => s === newVersion)).toHaveLength(1);
  });

  test('an image version is announced at once', async () => {
    const item = await createImage(server, { title: 'Still Frame', clientId: client.clientId });
    const data = fs.readFileSync(sampleImage());
    const { id } = await createUpload(admin, data.length, { filename: 'still-2.jpg' });
    expect((await patchUpload(admin, id!, 0, data)).status).toBe(204);
    const added = await admin.json('POST', `/api/media/${item.id}/versions`, { uploadId: id });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    await until('the email', async () => subjects(mailbox.received, address).includes('New version of Still Frame: v2'), 15_000);
  });
});

describe('NOTIFY_FROM', () => {
  test('wins over the company name, exactly as written', async () => {
    const mailbox = new Mailbox();
    await mailbox.listen();
    const server = await startServer({ env: { ...FAST, WORKER: 'off', SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`, NOTIFY_FROM: 'Review Desk <desk@harbour.example>' } });
    try {
      await setStudio(server);
      const admin = await staffSession(server.url, 'admin', 'admin-password-123');
      const client = await createClientWithLogin(server);
      const item = await createVideo(server, { title: 'Desk Film' });
      await assign(admin, item.id, client.clientId);
      const [mail] = await mailbox.waitForMessages(1);
      expect(fromOf(mail!)).toEqual({ name: 'Review Desk', address: 'desk@harbour.example' });
      // The signature is there whatever the sender.
      expect(bodyOf(mail!)).toContain(`${COMPANY}\nPhone: 01632 960 123`);
    } finally {
      await server.stop();
      await mailbox.close();
    }
  });
});

describe('the bell and the settings', () => {
  let server: TestServer;
  let admin: Session;
  beforeAll(async () => {
    server = await startServer({ env: { ...FAST, WORKER: 'off' } });
    admin = await staffSession(server.url, 'admin', 'admin-password-123');
  });
  afterAll(() => server?.stop());

  test('asks once, after the first assignment, and not again once answered (No thanks included)', async () => {
    const u = await createStaffUser(server, { permissions: ['view:media', 'assign:client', 'upload:media'] });
    const s = await staffSession(server.url, u.username, u.password);
    expect((await s.json('GET', '/api/notifications')).body.askEmail).toBe(false);
    const client = await createClientWithLogin(server);
    const item = await createVideo(server, { title: 'Asking Film' });
    await assign(s, item.id, client.clientId);
    // Shown until answered, on every poll.
    expect((await s.json('GET', '/api/notifications')).body.askEmail).toBe(true);
    expect((await s.json('GET', '/api/notifications')).body.askEmail).toBe(true);
    // Someone else's answer is their own.
    expect((await admin.json('GET', '/api/notifications')).body.askEmail).toBe(false);

    const answer = await s.json('PUT', '/api/user/notifications', { mode: 'off' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ mode: 'off', address: `${u.username}@studio.test` });
    expect((await s.json('GET', '/api/notifications')).body.askEmail).toBe(false);
    const second = await createVideo(server, { title: 'Asking Film 2' });
    await assign(s, second.id, client.clientId);
    expect((await s.json('GET', '/api/notifications')).body.askEmail).toBe(false);
    const row = (await server.sql.execute({ sql: 'SELECT notify_mode, notify_prompted_at FROM users WHERE username = ?', args: [u.username] })).rows[0]!;
    expect(row.notify_mode).toBe('off');
    expect(row.notify_prompted_at).not.toBeNull();
  });

  test('an upload asks too; someone who already chose a mode is not asked', async () => {
    const u = await createStaffUser(server, { permissions: ['view:media', 'upload:media'] });
    const s = await staffSession(server.url, u.username, u.password);
    const item = await createVideo(server, { title: 'Versioned Asking Film' });
    const data = sampleVideo('mp4');
    const { id } = await createUpload(s, data.length, { filename: 'ask.mp4' });
    expect((await patchUpload(s, id!, 0, data)).status).toBe(204);
    expect((await s.json('POST', '/api/media', { uploadId: id, title: 'Asked Upload' })).status).toBe(201);
    expect((await s.json('GET', '/api/notifications')).body.askEmail).toBe(true);
    expect((await s.json('PUT', '/api/user/notifications', { mode: 'digest' })).body.mode).toBe('digest');
    expect((await s.json('GET', '/api/notifications')).body.askEmail).toBe(false);
    expect(item.id).toBeGreaterThan(0);

    const chosen = await createStaffUser(server, { permissions: ['view:media', 'assign:client'] });
    const c = await staffSession(server.url, chosen.username, chosen.password);
    await c.json('PUT', '/api/user/notifications', { mode: 'immediately' });
    const client = await createClientWithLogin(server);
    await assign(c, (await createVideo(server)).id, client.clientId);
    expect((await c.json('GET', '/api/notifications')).body.askEmail).toBe(false);
  });

  test('the mode answers say where the emails go (staff and client)', async () => {
    expect((await admin.json('GET', '/api/user/notifications')).body).toEqual({ mode: 'off', address: 'admin@studio.test' });
    const client = await createClientWithLogin(server);
    const portal = await clientSession(server.url, client.username, client.password);
    const email = await loginEmail(server, client.clientUserId);
    expect((await portal.json('GET', '/api/client/notifications')).body).toEqual({ mode: 'immediately', address: email });
    expect((await portal.json('PUT', '/api/client/notifications', { mode: 'digest' })).body).toEqual({ mode: 'digest', address: email });
  });

  test('Mark all read: reading the bell leaves entries unread, POST /api/notifications/seen marks them all read', async () => {
    const u = await createStaffUser(server, { permissions: ['view:media'] });
    const s = await staffSession(server.url, u.username, u.password);
    const client = await createClientWithLogin(server);
    const portal = await clientSession(server.url, client.username, client.password);
    const item = await createVideo(server, { title: 'Read Film', clientId: client.clientId });
    expect((await portal.json('POST', `/api/client/media/${item.id}/feedback`, { mediaId: item.id, feedbackText: 'Nice', rating: 5 })).status).toBe(201);
    const first = (await s.json('GET', '/api/notifications')).body;
    expect(first.unread).toBeGreaterThan(0);
    expect((await s.json('GET', '/api/notifications')).body.unread).toBe(first.unread);
    const marked = await s.json('POST', '/api/notifications/seen');
    expect(marked.status).toBe(200);
    expect(marked.body.unread).toBe(0);
    expect(marked.body.events.every((e: { unread: boolean }) => !e.unread)).toBe(true);
    expect((await s.json('GET', '/api/notifications')).body.unread).toBe(0);
  });

  test("a note's bell entry carries its time and first line", async () => {
    const client = await createClientWithLogin(server);
    const portal = await clientSession(server.url, client.username, client.password);
    const item = await createVideo(server, { title: 'Noted Film', clientId: client.clientId, durationSeconds: 120 });
    const res = await portal.json('POST', `/api/client/media/${item.id}/timeline-notes`, { mediaId: item.id, timestampSeconds: 65, noteText: 'Logo too small here\nand the music is loud' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [event] = (await admin.json('GET', '/api/notifications')).body.events;
    expect(event).toMatchObject({ kind: 'note', mediaId: item.id, noteMs: 65_000, noteLine: 'Logo too small here' });
    // Other kinds have none.
    expect((await portal.json('POST', `/api/client/media/${item.id}/feedback`, { mediaId: item.id, feedbackText: 'Fine', rating: 4 })).status).toBe(201);
    const [feedback] = (await admin.json('GET', '/api/notifications')).body.events;
    expect(feedback).toMatchObject({ kind: 'feedback', noteMs: null, noteLine: null });
  });
});
