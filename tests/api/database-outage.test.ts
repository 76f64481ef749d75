// The database server stopped for 10 s while staff and clients work and the worker converts a
// video (issue 44): answers are 503 with Retry-After and a clear message, never a 500; a write
// cut off is either whole or absent, and every acknowledged one is there; the worker records
// its conversion on its first attempt; a read replica falls behind and catches up. Runs in the
// vitest project "sqld" only: a file database has no server to stop.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Client } from '@libsql/client';
import { connect } from '../../src/db/connect.ts';
import { crashSqld, sqldOf, startServer, type TestServer } from '../helpers/server.ts';
import { clientSession, type Session } from '../helpers/http.ts';
import { adminSession, createClientWithLogin, unique } from '../helpers/accounts.ts';
import { createVideo } from '../helpers/portal-fixtures.ts';
import { upload } from '../helpers/media-uploads.ts';
import { ffmpegProcessesFor, longSource } from '../helpers/video-sources.ts';
import { startSqld, type SqldProcess } from '../helpers/sqld.ts';
import { until } from '../helpers/until.ts';
import { tally, writer, type Tally } from '../helpers/outage-writer.ts';

const OUTAGE_MS = 10_000;

let server: TestServer;
let replica: SqldProcess;
let replicaSql: Client;

beforeAll(async () => {
  // A lease longer than the outage: the job stays this worker's throughout.
  // A conversion running through the outage is what is tested: real ffmpeg, not the test cache's.
  server = await startServer({ env: { JOB_POLL_MS: '200', JOB_LEASE_SECONDS: '60', FFMPEG_PATH: 'ffmpeg' } });
  replica = await startSqld({ dir: path.join(server.dir, 'replica'), primaryGrpcUrl: (await sqldOf(server)).grpcUrl! });
  replicaSql = connect({ url: replica.url }, { reuseStreams: false });
}, 120_000);

afterAll(async () => {
  replicaSql?.close();
  await replica?.stop();
  await server?.stop();
});

test('sqld stopped for 10 s: clear 503s, nothing half-written, the worker resumes, the replica catches up', { timeout: 300_000 }, async () => {
  const admin = await adminSession(server.url);
  const login = await createClientWithLogin(server);
  const video = await createVideo(server, { assign: [login.clientId] });
  const portal: Session = await clientSession(server.url, login.username, login.password);

  // A conversion under way when the database goes (it ends during the outage, below).
  const up = await upload(admin, { title: 'Converting through an outage' }, { data: fs.readFileSync(longSource(10)), name: 'clip.avi' });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  const item = up.body.id as number;
  const key = /[a-f0-9]{32}/.exec(up.body.url)![0];
  // ffmpeg running: the worker has read all it needs, and holds only its lease.
  await until('ffmpeg converting the clip', async () => ffmpegProcessesFor(key).length > 0, 120_000);
  const job = Number((await server.sql.execute({ sql: `SELECT id FROM jobs WHERE media_id = ? AND kind = 'transcode'`, args: [item] })).rows[0]!.id);

  const feedback: Tally = tally();
  const clients: Tally = tally();
  const reads: Tally = tally();
  let stop = false;
  const run = unique('outage');
  const writers = [
    ...[0, 1, 2].map((n) =>
      writer((m) => portal.json('POST', `/api/client/media/${video.id}/feedback`, { mediaId: video.id, feedbackText: m, rating: 3 }), `${run}-fb${n}`, feedback, () => stop),
    ),
    // A client and its portal login: two rows written in one transaction.
    writer(
      (m) => admin.json('POST', '/api/clients', { name: m, email: `${m}@clients.test`, phone: '', company: '', notes: '', username: m, password: 'portal-123' }),
      `${run}-cl`,
      clients,
      () => stop,
    ),
    writer(() => admin.json('GET', `/api/media/${video.id}/processing`), `${run}-rd`, reads, () => stop),
  ];

  await until('writes going through', async () => feedback.acked.length >= 6 && clients.acked.length >= 2, 60_000);
  const retryAfter = { seen: '' };
  const outage = await crashSqld(server);
  const down = Date.now();
  // Meanwhile a page and the API answer 503.
  await until('a 503 from the API', async () => feedback.unavailable > 0 && clients.unavailable > 0 && reads.unavailable > 0, OUTAGE_MS);
  const res = await fetch(`${server.url}/api/media`, { headers: { cookie: admin.cookieHeader() } });
  expect(res.status).toBe(503);
  retryAfter.seen = res.headers.get('retry-after') ?? '';
  expect(await res.json()).toEqual({ message: 'The database is not reachable right now. Please try again in a moment.' });
  const page = await fetch(`${server.url}/admin/media`, { headers: { cookie: admin.cookieHeader() }, redirect: 'manual' });
  expect(page.status).toBe(503);
  expect(page.headers.get('retry-after')).toBe(retryAfter.seen);
  expect(await page.text()).toContain('http-equiv="refresh"');
  // Down for the scenario's 10 s at least, and until the conversion's files are in place (no
  // scratch left): the worker's record of the job, not only its heartbeat, meets the outage.
  const folder = path.join(server.mediaDir, key);
  await until('the conversion finished', async () => {
    const names = fs.readdirSync(folder);
    return names.includes('sprite.vtt') && !names.some((n) => n.startsWith('.')) && ffmpegProcessesFor(key).length === 0;
  }, 120_000);
  await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (Date.now() - down))));
  const ackedBeforeRestart = feedback.acked.length;
  await outage.start();
  try {
    await until('writes going through again', async () => feedback.acked.length >= ackedBeforeRestart + 6 && reads.acked.length > 0, 60_000);
  } catch (e) {
    console.log(JSON.stringify({ feedback: { ...feedback, acked: feedback.acked.length }, clients: { ...clients, acked: clients.acked.length }, reads: { ...reads, acked: reads.acked.length }, ackedBeforeRestart }));
    console.log(server.output().slice(-3000));
    console.log(fs.readFileSync(path.join(server.dir, 'sqld', 'sqld.log'), 'utf8').slice(-3000));
    throw e;
  }
  stop = true;
  await Promise.all(writers);

  // Clear answers only: success, or 503 with the message (and Retry-After) while it was down.
  expect(Number(retryAfter.seen)).toBeGreaterThan(0);
  expect([...feedback.wrong, ...clients.wrong, ...reads.wrong]).toEqual([]);
  expect(feedback.unavailable).toBeGreaterThan(0);

  // Every acknowledged write is there once; whatever was cut off is whole or absent.
  const texts = (await server.sql.execute({ sql: 'SELECT feedback_text AS t FROM client_feedback WHERE feedback_text LIKE ?', args: [`${run}-%`] })).rows.map((r) => String(r.t));
  for (const m of feedback.acked) expect(texts.filter((t) => t === m), m).toHaveLength(1);
  const made = (await server.sql.execute({ sql: `SELECT c.name, count(u.id) AS logins FROM clients c LEFT JOIN client_users u ON u.client_id = c.id WHERE c.name LIKE ? GROUP BY c.id`, args: [`${run}-%`] })).rows;
  for (const m of clients.acked) expect(made.some((r) => r.name === m), m).toBe(true);
  for (const r of made) expect(Number(r.logins), `client ${r.name} has its login`).toBe(1);
  expect((await server.sql.execute('PRAGMA integrity_check')).rows.map((r) => Object.values(r)[0])).toEqual(['ok']);
  expect((await server.sql.execute('PRAGMA foreign_key_check')).rows).toEqual([]);

  // The worker kept its finished conversion through the outage and recorded it on the first
  // attempt (not retaken and converted again once its lease ran out).
  await until('the video ready', async () => (await admin.json('GET', `/api/media/${item}/processing`)).body.processingStatus === 'ready', 120_000);
  const jobs = (await server.sql.execute({ sql: `SELECT id, status, attempts FROM jobs WHERE media_id = ? AND kind = 'transcode'`, args: [item] })).rows;
  expect(jobs.map((j) => [Number(j.id), j.status, Number(j.attempts)])).toEqual([[job, 'done', 1]]);

  // The replica missed everything written since the restart, then catches up by itself.
  const count = async (c: Client) => Number((await c.execute('SELECT count(*) AS n FROM client_feedback')).rows[0]!.n);
  const primaryCount = await count(server.sql);
  const caughtUp = Date.now();
  await until('the replica caught up', async () => (await count(replicaSql)) === primaryCount, 60_000);
  console.info(
    `outage: ${feedback.acked.length + clients.acked.length} writes acknowledged, ${feedback.unavailable + clients.unavailable + reads.unavailable} answered 503; replica caught up in ${Date.now() - caughtUp} ms`,
  );
});
