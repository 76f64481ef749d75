// Several processes on one database and media folder behind Debian's nginx, configured with
// the shipped deploy/nginx/studio.conf: two web processes (WORKER=off, TRUST_PROXY=true)
// started together on a new database, and one `npm run worker`.
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, readStored, startServer, storageEnv, type TestServer } from '../helpers/server.ts';
import { spawnApp } from '../helpers/processes.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin } from '../helpers/accounts.ts';
import { createVideo } from '../helpers/portal-fixtures.ts';
import { openStream } from '../helpers/sse.ts';
import { startNginx, type Nginx } from '../helpers/nginx.ts';
import { source } from '../helpers/video-sources.ts';
import { until } from '../helpers/until.ts';

const WEB_ENV = { WORKER: 'off', TRUST_PROXY: 'true' };
const TUS = { 'Tus-Resumable': '1.0.0' };

let dir: string;
let a: TestServer;
let b: TestServer;
let worker: ChildProcess;
let workerLog = '';
let proxy: Nginx;
let admin: Session;


/** The same signed-in cookies, sent to another base URL. */
function sameSessionAt(session: Session, base: string): Session {
  const other = new Session(base);
  for (const [k, v] of session.cookies) other.cookies.set(k, v);
  return other;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-multi-'));
  // Both web processes start at once on an empty database: migrations and the seed race.
  [a, b] = await Promise.all([startServer({ dir, env: WEB_ENV }), startServer({ dir, env: WEB_ENV })]);
  worker = spawnApp('scripts/worker.mjs', [], { ...process.env, ...storageEnv(a), DATABASE_URL: a.databaseUrl, MEDIA_DIR: a.mediaDir, DEMO_CONTENT: 'false', ADMIN_PASSWORD: ADMIN.password, JOB_POLL_MS: '50' });
  worker.stdout!.on('data', (c: Buffer) => (workerLog += c));
  worker.stderr!.on('data', (c: Buffer) => (workerLog += c));
  await until('the worker', async () => workerLog.includes('STUDIO_WORKER_READY'), 60_000);
  proxy = await startNginx([a.port, b.port]);
  admin = await staffSession(proxy.url, ADMIN.username, ADMIN.password);
}, 120_000);

afterAll(async () => {
  await proxy?.stop();
  worker?.kill('SIGKILL');
  await a?.stop();
  await b?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('two web processes and a worker behind nginx', () => {
  test('both processes came up on the new database with one admin and one set of roles', async () => {
    const users = await a.sql.execute('SELECT count(*) AS n FROM users');
    const roles = await a.sql.execute("SELECT count(*) AS n FROM roles WHERE name IN ('Admin', 'Staff', 'Client')");
    expect([Number(users.rows[0]!.n), Number(roles.rows[0]!.n)]).toEqual([1, 3]);
    for (const s of [a, b]) expect(s.output()).toMatch(/Video worker off/);
  });

  test('a session made through one process works on the other', async () => {
    const viaA = await staffSession(a.url, ADMIN.username, ADMIN.password);
    const viaB = sameSessionAt(viaA, b.url);
    expect((await viaB.get('/api/stats')).status).toBe(200);
    expect((await new Session(b.url).get('/api/stats')).status).toBe(401);
    // Signing out on B ends it on A too.
    expect((await viaB.post('/api/logout')).status).toBe(200);
    expect((await viaA.get('/api/stats')).status).toBe(401);
  });

  test('a resumable upload whose chunks land on different processes completes byte-identical, and the worker converts it once', { timeout: 120_000 }, async () => {
    const file = source('H.264 MKV without audio');
    const data = fs.readFileSync(file);
    const created = await admin.post('/api/uploads', undefined, { ...TUS, 'Upload-Length': String(data.length), 'Upload-Metadata': `filename ${Buffer.from('clip.mkv').toString('base64')}` });
    expect(created.status).toBe(201);
    const id = created.headers.get('location')!.split('/').pop()!;
    const chunk = Math.ceil(data.length / 4);
    for (let offset = 0; offset < data.length; offset += chunk) {
      const res = await admin.patch(`/api/uploads/${id}`, data.subarray(offset, offset + chunk), { ...TUS, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' });
      expect(res.status).toBe(204);
    }
    // nginx writes an access-log line after the answer has gone out, so the last one may lag the client.
    const patchLines = () => proxy.accessLog().filter((l) => l.startsWith(`PATCH /api/uploads/${id} 204`));
    await until('four PATCH lines in the nginx log', async () => patchLines().length >= 4, 5_000).catch(() => undefined);
    const patches = patchLines();
    expect(patches).toHaveLength(4);
    // nginx spread the chunks over both processes.
    expect(new Set(patches.map((l) => l.split(' ')[3])).size).toBe(2);

    const finished = await admin.post('/api/media', { uploadId: id, title: 'Spread upload' });
    expect(finished.status).toBe(201);
    const item = await finished.json();
    const [key, variant] = new URL(item.url, proxy.url).pathname.replace(/^\/media\//, '').split('/');
    const stored = (await readStored(a, key!, variant!))!;
    expect(createHash('sha256').update(stored).digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));

    await until(
      'the item ready',
      async () => {
        const p = await (await admin.get(`/api/media/${item.id}/processing`)).json();
        return p.processingStatus === 'ready';
      },
      90_000,
    );
    const jobs = await a.sql.execute({ sql: 'SELECT status, attempts FROM jobs WHERE media_id = ?', args: [item.id] });
    expect(jobs.rows.map((j) => [j.status, Number(j.attempts)])).toEqual([['done', 1]]);
    expect(workerLog.match(new RegExp(`video ${item.id}: ready`, 'g'))).toHaveLength(1);
    for (const s of [a, b]) expect(s.output()).not.toMatch(new RegExp(`video ${item.id}:`));
  });

  test('a settings change shows on the next request through either process', async () => {
    const phone = `0116 496 ${String(Date.now()).slice(-4)}`;
    const before = await (await fetch(`${b.url}/contact`)).text();
    expect(before).not.toContain(phone);
    const res = await sameSessionAt(admin, a.url).put('/api/contact-info', { contactEmail: 'hello@studio.example', contactPhone: phone, contactAddress: '1 Mill Lane', instagramUrl: '', facebookUrl: '', linkedinUrl: '' });
    expect(res.status).toBe(200);
    for (const base of [b.url, a.url]) expect(await (await fetch(`${base}/contact`)).text()).toContain(phone);
    // nginx keeps public pages one second (deploy/nginx/studio.conf), then asks again.
    await until('the new phone number through nginx', async () => (await (await fetch(`${proxy.url}/contact`)).text()).includes(phone), 5_000);
  });

  test('the client address comes from the proxy: X-Forwarded-For sent by a visitor is not believed', async () => {
    // nginx appends the real peer (127.0.0.1) to whatever the visitor sent; the app takes the
    // right-most entry, so a forged address cannot dodge the sign-in throttle (5 failures per
    // account and address).
    const attempt = (forged: string) =>
      fetch(`${proxy.url}/api/login`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: proxy.url, 'X-Forwarded-For': forged }, body: JSON.stringify({ username: 'guessed.account', password: 'wrong-password' }) });
    for (let i = 0; i < 5; i++) expect((await attempt(`203.0.113.${i}`)).status).toBe(401);
    const blocked = await attempt('198.51.100.7');
    expect(blocked.status).toBe(429);
  });

  test('live review across processes: a presenter on one web process, followers on the other and through nginx, in step', async () => {
    const c = await createClientWithLogin(a, { name: 'Live Across' });
    const film = await createVideo(a, { title: 'Across Film', clientId: c.clientId, durationSeconds: 20 });
    const presenter = await staffSession(a.url, ADMIN.username, ADMIN.password);
    const onB = await clientSession(b.url, c.username, c.password);
    const viaProxy = sameSessionAt(onB, proxy.url);
    const presenterStream = await openStream(presenter, '/api/live/stream?as=staff');
    const followerB = await openStream(onB, '/api/live/stream?as=client');
    // Through nginx the hello (a few hundred bytes) arrives at once: the stream is not buffered.
    const followerProxy = await openStream(viaProxy, '/api/live/stream?as=client');
    try {
      const started = await presenter.json('POST', `/api/media/${film.id}/live`, {});
      expect(started.status).toBe(201);
      const id = started.body.id;
      // B learns of the session A started from the shared table.
      await followerB.waitFor('started on B', (m) => m.event === 'live' && m.data.type === 'started' && m.data.session.id === id);
      expect((await presenter.json('POST', `/api/live/sessions/${id}/join?as=staff`, { connection: presenterStream.hello.connection })).status).toBe(200);
      // A join may go through any process: the one holding the stream learns of it from the table.
      expect((await viaProxy.json('POST', `/api/live/sessions/${id}/join?as=client`, { connection: followerB.hello.connection })).status).toBe(200);
      expect((await onB.json('POST', `/api/live/sessions/${id}/join?as=client`, { connection: followerProxy.hello.connection })).status).toBe(200);
      const versionId = started.body.state.versionId;
      for (const frame of [12, 13, 250]) {
        const sent = await presenter.json('POST', `/api/live/sessions/${id}/state?as=staff`, { versionId, playing: false, rate: 1, ms: frame * 40, frame });
        expect(sent.status, JSON.stringify(sent.body)).toBe(200);
        for (const f of [followerB, followerProxy]) await f.waitFor(`frame ${frame}`, (m) => m.event === 'live' && m.data.type === 'state' && m.data.state.frame === frame);
      }
      // And a change made through B reaches the presenter's stream on A.
      const note = await viaProxy.json('POST', `/api/client/media/${film.id}/timeline-notes`, { mediaId: film.id, noteText: 'From B', timestampMs: 500 });
      expect(note.status).toBe(201);
      await presenterStream.waitFor('the note on A', (m) => m.event === 'note' && m.data.id === note.body.id);
      expect((await presenter.json('POST', `/api/live/sessions/${id}/end?as=staff`)).status).toBe(200);
      for (const f of [followerB, followerProxy]) await f.waitFor('the end', (m) => m.event === 'live' && m.data.type === 'ended' && m.data.sessionId === id);
    } finally {
      for (const st of [presenterStream, followerB, followerProxy]) st.close();
    }
  });

  test('killing one web process mid-traffic loses no acknowledged write', { timeout: 120_000 }, async () => {
    const acknowledged: number[] = [];
    let failed = 0;
    let sent = 0;
    const TOTAL = 60;
    const one = async () => {
      const n = sent++;
      const res = await admin.post('/api/clients', { name: `Kill test ${n}`, email: `kill${n}@clients.test`, username: `kill.${n}`, password: 'client-pass-123' }).catch(() => null);
      // Acknowledged = a 201 whose answer arrived whole; a connection cut mid-answer (the process
      // died after the headers) acknowledged nothing, whatever was stored.
      const body = res?.status === 201 ? await res.json().catch(() => null) : null;
      if (body) acknowledged.push(body.id);
      else failed++;
    };
    const lanes = Array.from({ length: 3 }, async () => {
      while (sent < TOTAL) {
        if (sent === 20) void b.kill();
        await one();
      }
    });
    await Promise.all(lanes);
    expect(b.proc.signalCode).toBe('SIGKILL');
    // Most writes went through (nginx moved to the live process); every acknowledged one is stored.
    expect(acknowledged.length).toBeGreaterThanOrEqual(TOTAL - 10);
    expect(acknowledged.length + failed).toBe(TOTAL);
    const rows = await a.sql.execute(`SELECT id FROM clients WHERE name LIKE 'Kill test %'`);
    const stored = new Set(rows.rows.map((r) => Number(r.id)));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    // And the survivor keeps answering through the proxy.
    expect((await admin.get('/api/stats')).status).toBe(200);
  });
});
