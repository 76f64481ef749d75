// GET /api/health (issue 43): 200 when every part is well; 503 naming each part that is not
// (free disk under MIN_FREE_BYTES, no worker or a silent one, a worker without ffmpeg, ffmpeg
// missing here); no secrets in either answer. Anonymous callers get the status alone (issue 51):
// the version, free bytes, the worker's heartbeat and ffmpeg go to signed-in staff and to a
// monitor sending HEALTH_TOKEN. The database part is in tests/unit/health-database.test.ts (a
// running server's connection cannot be cut from outside).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin } from '../helpers/accounts.ts';
import { until } from '../helpers/until.ts';

const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
/** The monitor's token (HEALTH_TOKEN) every server of this file is started with. */
const TOKEN = 'monitor-7f3a9c1e5b2d8f4a6c0e3b9d1f7a5c2e';
const BEARER = { Authorization: `Bearer ${TOKEN}` };

interface Health {
  ok: boolean;
  message?: string;
  version: string;
  problems: string[];
  database: { ok: boolean };
  disk: { ok: boolean; freeBytes: number | null; minFreeBytes: number };
  worker: { ok: boolean; heartbeatAgeSeconds: number | null; ffmpeg: boolean | null };
  ffmpeg: { ok: boolean };
}

/** The answer as a caller sending `headers` gets it (by default the monitor, with the token). */
async function health(server: TestServer, headers: Record<string, string> = BEARER): Promise<{ status: number; body: Health; text: string }> {
  const res = await fetch(`${server.url}/api/health`, { headers });
  const text = await res.text();
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toMatch(/no-store/);
  return { status: res.status, body: JSON.parse(text) as Health, text };
}

/** A worker's row as heartbeat.ts writes it, `agoMs` in the past. */
async function workerBeat(server: TestServer, agoMs: number, ffmpeg = true) {
  await server.sql.execute({
    sql: 'INSERT INTO worker_heartbeats (owner, seen_at, ffmpeg) VALUES (?, ?, ?) ON CONFLICT (owner) DO UPDATE SET seen_at = excluded.seen_at, ffmpeg = excluded.ffmpeg',
    args: ['test-worker', Date.now() - agoMs, ffmpeg ? 1 : 0],
  });
}

describe('a healthy install (web process with its worker)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { HEALTH_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  test('with the token: 200 with the version, every part well, and no secrets', async () => {
    // The in-process worker reports in right after it starts.
    const { body, text } = await until('a healthy answer', async () => {
      const h = await health(server);
      return h.status === 200 ? h : null;
    });
    expect(body).toMatchObject({ ok: true, version: VERSION, problems: [], database: { ok: true }, disk: { ok: true }, worker: { ok: true, ffmpeg: true }, ffmpeg: { ok: true } });
    expect(body.message).toBeUndefined();
    expect(body.worker.heartbeatAgeSeconds).toBeGreaterThanOrEqual(0);
    expect(body.worker.heartbeatAgeSeconds).toBeLessThan(60);
    expect(body.disk.freeBytes).toBeGreaterThan(body.disk.minFreeBytes);
    // Nothing about where things are or how to get in.
    for (const secret of [server.dir, server.dbFile, ADMIN.password, ADMIN.email, TOKEN, 'file:', '/tmp/']) expect(text).not.toContain(secret);
  });

  test('anonymous callers and clients get the status alone: no version, space, worker or ffmpeg', async () => {
    const c = await createClientWithLogin(server);
    const client = await clientSession(server.url, c.username, c.password);
    const callers: Record<string, string>[] = [{}, { Cookie: client.cookieHeader() }, { Authorization: 'Basic dXNlcjpwYXNz' }];
    for (const headers of callers) {
      const { status, body, text } = await health(server, headers);
      expect(status, JSON.stringify(headers)).toBe(200);
      expect(body).toEqual({ ok: true });
      expect(text).not.toContain(VERSION);
    }
  });

  test('signed-in staff get the details, and the admin footer shows the same version', async () => {
    const staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
    const { status, body } = await health(server, { Cookie: staff.cookieHeader() });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, version: VERSION, problems: [], disk: { ok: true }, worker: { ok: true } });
    const page = await (await staff.get('/admin/dashboard')).text();
    expect(page).toMatch(new RegExp(`data-testid="app-version"[^>]*>Studio ${VERSION.replace(/\./g, '\\.')}<`));
  });

  test.each([
    ['a wrong token', `Bearer ${TOKEN.slice(0, -1)}x`],
    ['the token with one character more', `Bearer ${TOKEN}x`],
    ['an empty token', 'Bearer '],
  ])('%s: 401 saying so, and nothing else', async (_what, authorization) => {
    const { status, body, text } = await health(server, { Authorization: authorization });
    expect(status).toBe(401);
    expect(body).toEqual({ message: 'Wrong health token (HEALTH_TOKEN)' });
    expect(text).not.toContain(VERSION);
  });
});

describe('video workers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WORKER: 'off', HEALTH_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  test('none ever reported in: 503 naming it', async () => {
    const { status, body } = await health(server);
    expect(status).toBe(503);
    expect(body.problems).toEqual(['no video worker has reported in (start one with WORKER=on or npm run worker)']);
    expect(body.message).toBe(`Unhealthy: ${body.problems[0]}`);
    expect(body).toMatchObject({ ok: false, version: VERSION, database: { ok: true }, disk: { ok: true }, worker: { ok: false, heartbeatAgeSeconds: null }, ffmpeg: { ok: true } });
    // Anonymous: the same 503, without naming the part.
    const anonymous = await health(server, {});
    expect(anonymous.status).toBe(503);
    expect(anonymous.body).toEqual({ ok: false, message: 'Unhealthy' });
  });

  test('a worker that reported in a moment ago: 200 with its age', async () => {
    await workerBeat(server, 3000);
    const { status, body } = await health(server);
    expect(status).toBe(200);
    expect(body.worker.heartbeatAgeSeconds).toBeGreaterThanOrEqual(3);
    expect(body.worker.heartbeatAgeSeconds).toBeLessThan(30);
  });

  // Silent past a minute (six missed beats) is gone: 70 s is past it, as two minutes are.
  test.each([
    ['70 s', 70_000, /^no video worker has reported in for 7\d s$/],
    ['two minutes', 120_000, /^no video worker has reported in for 12\d s$/],
  ])('a worker silent for %s: 503 with its age', async (_what, agoMs, problem) => {
    await workerBeat(server, agoMs);
    const { status, body } = await health(server);
    expect(status).toBe(503);
    expect(body.problems).toHaveLength(1);
    expect(body.problems[0]).toMatch(problem);
    expect(body.worker.ok).toBe(false);
  });

  test('a worker that cannot find ffmpeg: 503 saying so', async () => {
    await workerBeat(server, 1000, false);
    const { status, body } = await health(server);
    expect(status).toBe(503);
    expect(body.problems).toEqual(['the video worker cannot find ffmpeg/ffprobe (FFMPEG_PATH, FFPROBE_PATH)']);
    expect(body.worker).toMatchObject({ ok: false, ffmpeg: false });
  });
});

describe('disk and ffmpeg', () => {
  let server: TestServer;
  beforeAll(async () => {
    // More free space demanded than any disk has, and an ffmpeg that is not there.
    server = await startServer({ env: { WORKER: 'off', HEALTH_TOKEN: TOKEN, MIN_FREE_BYTES: String(2 ** 52), FFMPEG_PATH: path.join(ROOT, 'no-such-ffmpeg') } });
    await workerBeat(server, 0);
  });
  afterAll(async () => {
    await server?.stop();
  });

  test('each failing part is named, the others stay well', async () => {
    const { status, body, text } = await health(server);
    expect(status).toBe(503);
    expect(body.problems).toHaveLength(2);
    expect(body.problems[0]).toMatch(/^free disk space \([\d,]+ MiB\) is below MIN_FREE_BYTES \(4,294,967,296 MiB\)$/);
    expect(body.problems[1]).toBe('ffmpeg/ffprobe not found by this process (FFMPEG_PATH, FFPROBE_PATH)');
    expect(body).toMatchObject({ database: { ok: true }, disk: { ok: false, minFreeBytes: 2 ** 52 }, worker: { ok: true }, ffmpeg: { ok: false } });
    // The configured path is not echoed back.
    expect(text).not.toContain('no-such-ffmpeg');
  });
});

test.each([
  ['shorter than 32 characters', 'too-short-a-token'],
  ['with a space', `${TOKEN} and more`],
])('a HEALTH_TOKEN %s stops start-up naming it', async (_what, token) => {
  await expect(startServer({ env: { HEALTH_TOKEN: token } })).rejects.toThrow(/Invalid environment:[\s\S]*HEALTH_TOKEN: /);
});
