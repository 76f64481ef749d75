// Several hosts on one database server and one bucket (issue 44), simulated with a data folder
// per host and nothing shared but the network: sqld's primary on the "database host", two web
// hosts and a worker host, media in the run's radosgw bucket. The second web host has a read
// replica (sqld --primary-grpc-url) beside it: its anonymous readers read there, everyone who
// signed in reads the primary (src/db/read-routing.ts), so a writer always sees their write.
// Runs in the vitest project "s3" (it needs the bucket; it starts its own sqld).
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ADMIN, startServer, storageEnv, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin } from '../helpers/accounts.ts';
import { sampleImage, upload } from '../helpers/media-uploads.ts';
import { source } from '../helpers/video-sources.ts';
import { waitSettled } from '../helpers/processing.ts';
import { startSqld, type SqldProcess } from '../helpers/sqld.ts';
import { until } from '../helpers/until.ts';
import { spawnApp } from '../helpers/processes.ts';

let dir: string;
let primary: SqldProcess;
let replica: SqldProcess;
/** Web host 1, on the primary only. */
let web1: TestServer;
/** Web host 2, with the read replica beside it. */
let web2: TestServer;
let worker: ChildProcess;
let workerLog = '';
const host = (name: string) => path.join(dir, name);
/**
 * Every request of these tests answers within this, or fails naming itself: a request left
 * waiting on the stalled (SIGSTOPped) replica would otherwise hang until the test's own timeout.
 */
const ANSWER_MS = 15_000;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-hosts-'));
  primary = await startSqld({ dir: path.join(host('db-host'), 'sqld') });
  replica = await startSqld({ dir: path.join(host('web-host-2'), 'replica'), primaryGrpcUrl: primary.grpcUrl! });
  // One share-link key for every web host (else each would make a key file of its own).
  const shared = { WORKER: 'off', SHARE_LINK_KEY: randomBytes(32).toString('hex') };
  web1 = await startServer({ dir: host('web-host-1'), databaseUrl: primary.url, env: shared });
  web2 = await startServer({ dir: host('web-host-2'), databaseUrl: primary.url, env: { ...shared, ...storageEnv(web1), DATABASE_REPLICA_URL: replica.url } });
  worker = spawnApp('scripts/worker.mjs', [], { ...process.env, ...storageEnv(web1), DATABASE_URL: primary.url, MEDIA_DIR: path.join(host('worker-host'), 'media'), DEMO_CONTENT: 'false', ADMIN_PASSWORD: ADMIN.password, JOB_POLL_MS: '100' });
  worker.stdout!.on('data', (c: Buffer) => (workerLog += c));
  worker.stderr!.on('data', (c: Buffer) => (workerLog += c));
  await until('the worker', async () => workerLog.includes('STUDIO_WORKER_READY'), 60_000);
}, 180_000);

afterAll(async () => {
  worker?.kill('SIGKILL');
  await web1?.stop();
  await web2?.stop();
  await replica?.stop();
  await primary?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every file under a folder, relative. */
function files(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

test('a video uploaded through one web host is converted on the worker host and plays through the other', { timeout: 180_000 }, async () => {
  expect(web1.databaseUrl).toBe(primary.url);
  const admin1 = await staffSession(web1.url, ADMIN.username, ADMIN.password);
  const up = await upload(admin1, { title: 'Across hosts' }, { data: fs.readFileSync(source('H.264 MKV without audio')), name: 'clip.mkv' });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  const admin2 = await staffSession(web2.url, ADMIN.username, ADMIN.password);
  const settled = await waitSettled(admin2, up.body.id, 150_000);
  expect(settled.processingStatus).toBe('ready');
  expect(workerLog).toMatch(new RegExp(`video ${up.body.id}: ready`));
  const res = await admin2.get(settled.playbackUrl);
  expect(res.status).toBe(200);
  expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);

  // No host keeps data: no database file anywhere but in sqld's own folders, no media file
  // left in any host's MEDIA_DIR (work in progress only; the bucket holds the files).
  for (const name of ['web-host-1', 'web-host-2', 'worker-host']) {
    const kept = files(host(name)).filter((f) => !f.startsWith('replica/') && !f.startsWith('outbox/'));
    expect(kept.filter((f) => /\.db($|-)/.test(f)), name).toEqual([]);
    expect(kept.filter((f) => f.startsWith('media/') && !path.basename(f).startsWith('.')), name).toEqual([]);
  }
});

test('beside the replica, a signed-in writer reads each write at once, and a new account signs in, even with the replica stalled', { timeout: 90_000 }, async () => {
  const admin = await staffSession(web2.url, ADMIN.username, ADMIN.password, ANSWER_MS);
  const item = await upload(admin, { title: 'Renamed often' }, { data: await sampleImage('png', 64, 48), name: 'r.png', type: 'image/png' });
  expect(item.status).toBe(201);
  const login = await createClientWithLogin(web1);
  expect((await admin.json('POST', `/api/media/${item.body.id}/clients/${login.clientId}`)).status).toBe(201);
  const portal = await clientSession(web2.url, login.username, login.password, ANSWER_MS);
  // The replica stalls (SIGSTOP: as far behind as it gets, and silent): nothing a signed-in
  // person reads may wait for it or come from it. Over a live replica the lag here is tens of
  // milliseconds, too short to catch a stale read every time.
  replica.proc.kill('SIGSTOP');
  try {
    for (let i = 0; i < 10; i++) {
      expect((await admin.json('PUT', `/api/media/${item.body.id}`, { title: `Title ${i}` })).status).toBe(200);
      const list = await admin.json('GET', '/api/media');
      expect(list.body.find((m: { id: number }) => m.id === item.body.id)?.title, `rename ${i}`).toBe(`Title ${i}`);
      const note = `Note ${i}`;
      expect((await portal.json('POST', `/api/client/media/${item.body.id}/feedback`, { mediaId: item.body.id, feedbackText: note, rating: 4 })).status).toBe(201);
      const mine = await portal.json('GET', '/api/client/media/feedback');
      expect(mine.body.map((f: { feedbackText: string }) => f.feedbackText), `feedback ${i}`).toContain(note);
    }
    // A sign-in carries no cookie yet, but it is a write (a session) whose reads must see the
    // account staff just made on the other host: a client told "your login is ready" signs in
    // at once, through the host beside the stalled replica.
    const late = await createClientWithLogin(web1);
    const lateSession = await clientSession(web2.url, late.username, late.password, ANSWER_MS);
    expect((await lateSession.json('GET', '/api/client/media')).status).toBe(200);
  } finally {
    replica.proc.kill('SIGCONT');
  }
});

test('anonymous readers beside the replica read it: a short lag behind, and still served while the primary is down', { timeout: 120_000 }, async () => {
  const admin = await staffSession(web1.url, ADMIN.username, ADMIN.password, ANSWER_MS);
  const featured = async (s: TestServer) => {
    const r = await new Session(s.url, undefined, ANSWER_MS).json('GET', '/api/media/featured');
    return { status: r.status, ids: r.status === 200 ? (r.body as { id: number }[]).map((m) => m.id) : [] };
  };
  const lags: number[] = [];
  for (let i = 0; i < 5; i++) {
    const item = await upload(admin, { title: `Featured ${i}`, isFeatured: 'true' }, { data: await sampleImage('png', 64, 48), name: `f${i}.png`, type: 'image/png' });
    expect(item.status).toBe(201);
    const written = Date.now();
    await until('the replica showing the new item', async () => (await featured(web2)).ids.includes(item.body.id), 30_000);
    lags.push(Date.now() - written);
  }
  console.info(`replica lag seen by anonymous reads: ${lags.join(', ')} ms`);

  // The primary stops: host 2 still answers anonymous reads from its replica; signed-in
  // requests (on the primary) answer 503 on both hosts.
  await primary.stop();
  try {
    const before = await featured(web2);
    expect(before.status).toBe(200);
    expect(before.ids.length).toBeGreaterThanOrEqual(5);
    expect((await featured(web1)).status).toBe(503);
    expect((await admin.json('GET', '/api/media')).status).toBe(503);
  } finally {
    primary = await startSqld({ dir: primary.dir, httpPort: primary.httpPort, grpcPort: primary.grpcPort! });
  }
  // Back: a write on host 1 reaches host 2's anonymous readers through the replica again.
  const after = await upload(admin, { title: 'After the restart', isFeatured: 'true' }, { data: await sampleImage('png', 64, 48), name: 'after.png', type: 'image/png' });
  expect(after.status).toBe(201);
  await until('the replica caught up after the restart', async () => (await featured(web2)).ids.includes(after.body.id), 60_000);
});
