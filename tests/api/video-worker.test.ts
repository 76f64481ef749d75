// The worker under faults: killed mid-job (the lease lapses, the job is retaken and completes
// once, no partial files), two worker processes on one database (never the same job),
// deleting an item mid-conversion (ffmpeg ends, no files; and, with the folder left in place,
// the heartbeat alone stops ffmpeg), and no ffmpeg installed at all.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { spawnApp } from '../helpers/processes.ts';
import type { Session } from '../helpers/http.ts';
import { adminSession } from '../helpers/accounts.ts';
import { upload } from '../helpers/media-uploads.ts';
import { ffmpegProcessesFor, longSource, probeOutput, source } from '../helpers/video-sources.ts';
import { createVideo } from '../helpers/portal-fixtures.ts';
import { until } from '../helpers/until.ts';

const LEASE_MS = 3000;
const POLL_MS = 200;
/** A restarted worker's own start (migrations, the ffmpeg check, the backfill) on a busy machine. */
const STARTUP_SLACK_MS = 20_000;

const servers: TestServer[] = [];
const workers: ChildProcess[] = [];
afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  for (const s of servers) await s.stop();
});

async function start(env: Record<string, string> = {}, dir?: string) {
  // Killing and timing conversions is what is tested: real ffmpeg, never the test cache's.
  const s = await startServer({ env: { JOB_POLL_MS: String(POLL_MS), FFMPEG_PATH: 'ffmpeg', ...env }, ...(dir ? { dir } : {}) });
  servers.push(s);
  return { server: s, admin: await adminSession(s.url) };
}

async function uploadFile(admin: Session, file: string, title = path.basename(file)) {
  const r = await upload(admin, { title }, { data: fs.readFileSync(file), name: path.basename(file) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: number; url: string };
}

const keyOf = (url: string) => /[a-f0-9]{32}/.exec(url)![0];


async function mediaRow(server: TestServer, id: number) {
  return (await server.sql.execute({ sql: 'SELECT processing_status AS status, processing_progress AS progress FROM media WHERE id = ?', args: [id] })).rows[0];
}

async function jobOf(server: TestServer, mediaId: number) {
  return (await server.sql.execute({ sql: "SELECT status, attempts, created_at FROM jobs WHERE media_id = ? AND kind = 'transcode' ORDER BY id DESC LIMIT 1", args: [mediaId] })).rows[0];
}

/** Waits until the item is ready, failing as soon as its conversion makes no progress for 30 s. */
async function convertedWithProgress(server: TestServer, mediaId: number) {
  let last = { progress: -1, at: Date.now() };
  await until('ready', async () => {
    const r = await mediaRow(server, mediaId);
    if (r?.status === 'ready') return true;
    const progress = Number(r?.progress ?? 0);
    if (progress !== last.progress) last = { progress, at: Date.now() };
    else if (Date.now() - last.at > 30_000) throw new Error(`the conversion stopped at ${progress} % (${r?.status})`);
    return null;
  }, 200_000);
}

describe('worker faults', () => {
  test('SIGKILL mid-job: after restart the job is retaken, completes once, and leaves no partial files', { timeout: 240_000 }, async () => {
    const { server, admin } = await start({ JOB_LEASE_SECONDS: String(LEASE_MS / 1000) });
    // Long enough that the conversion is still going when it is caught (an idle machine
    // converts a 10 s source in under a second, before any progress is written).
    const seconds = 60;
    const item = await uploadFile(admin, longSource(seconds));
    await until('conversion under way', async () => {
      const r = await mediaRow(server, item.id);
      return r?.status === 'processing' && Number(r.progress) > 0;
    });
    const folder = path.join(server.mediaDir, keyOf(item.url));
    expect(fs.readdirSync(folder).some((f) => f.startsWith('.tmp-'))).toBe(true);
    await server.kill();
    await server.restart();
    // The restarted worker takes the job again once its lease has lapsed, at its next poll: a
    // job never retaken fails here, quickly, not after the whole conversion's allowance.
    await until('the job retaken', async () => Number((await jobOf(server, item.id))?.attempts) === 2, LEASE_MS + POLL_MS + STARTUP_SLACK_MS);
    await convertedWithProgress(server, item.id);
    const jobs = (await server.sql.execute({ sql: 'SELECT status, attempts FROM jobs WHERE media_id = ?', args: [item.id] })).rows;
    expect(jobs.map((j) => [j.status, Number(j.attempts)])).toEqual([['done', 2]]);
    // The worker logs "ready" just after it records the job done: wait for the line, then count.
    const readyLines = () => server.output().match(new RegExp(`video ${item.id}: ready`, 'g'))?.length ?? 0;
    await until('its ready line', async () => readyLines() > 0, 10_000);
    expect(readyLines()).toBe(1);
    expect(fs.readdirSync(folder).filter((f) => f.startsWith('.'))).toEqual([]);
    // The finished proxy is whole: full length, a keyframe every 2 s.
    const out = probeOutput(path.join(folder, '720p.mp4'));
    expect(Math.abs(out.durationSeconds - seconds)).toBeLessThan(0.3);
    expect([out.width, out.height]).toEqual([640, 360]);
    expect(out.keyframes.length).toBeGreaterThanOrEqual(5);
    for (let i = 1; i < out.keyframes.length; i++) expect(out.keyframes[i]! - out.keyframes[i - 1]!).toBeLessThanOrEqual(2.05);
  });

  test('leases are renewed: with WORKER_JOBS=2 and a 2 s lease, a conversion far longer than the lease is attempted once; a job due in an hour is not claimed', { timeout: 240_000 }, async () => {
    const { server, admin } = await start({ WORKER_JOBS: '2', JOB_LEASE_SECONDS: '2', FFMPEG_THREADS: '1' });
    // Deferred (a retry's backoff, a repair queued behind other work): the idle lane polls past it.
    const later = await createVideo(server);
    const laterVersion = Number((await server.sql.execute({ sql: 'SELECT id FROM media_versions WHERE media_id = ?', args: [later.id] })).rows[0]!.id);
    await server.sql.execute({ sql: "INSERT INTO jobs (kind, media_id, version_id, run_after) VALUES ('transcode', ?, ?, ?)", args: [later.id, laterVersion, Date.now() + 3_600_000] });
    const item = await uploadFile(admin, longSource(60));
    await until('conversion under way', async () => (await mediaRow(server, item.id))?.status === 'processing');
    const began = Date.now();
    await convertedWithProgress(server, item.id);
    // Long enough that an unrenewed lease would have lapsed several times over, the other lane
    // polling every 200 ms to take it.
    expect(Date.now() - began).toBeGreaterThan(3 * 2000);
    const job = await jobOf(server, item.id);
    expect([job?.status, Number(job?.attempts)]).toEqual(['done', 1]);
    expect((await server.sql.execute({ sql: 'SELECT status, attempts FROM jobs WHERE media_id = ?', args: [later.id] })).rows.map((r) => [r.status, Number(r.attempts)])).toEqual([['queued', 0]]);
  });

  test('deleting an item mid-conversion ends ffmpeg and leaves no files', { timeout: 120_000 }, async () => {
    const { server, admin } = await start();
    const item = await uploadFile(admin, longSource(16));
    const key = keyOf(item.url);
    await until('ffmpeg converting the item', async () => ffmpegProcessesFor(key).length > 0 && (await mediaRow(server, item.id))?.status === 'processing');
    expect((await admin.json('DELETE', `/api/media/${item.id}`)).status).toBe(200);
    await until('ffmpeg ended', async () => ffmpegProcessesFor(key).length === 0, 10_000);
    // Stays gone: nothing recreates the folder afterwards.
    await new Promise((r) => setTimeout(r, 1500));
    expect(fs.existsSync(path.join(server.mediaDir, key))).toBe(false);
    expect((await server.sql.execute({ sql: 'SELECT count(*) AS n FROM jobs WHERE media_id = ?', args: [item.id] })).rows[0]!.n).toBe(0);
    expect(ffmpegProcessesFor(key)).toEqual([]);
  });

  test("an item deleted while its folder stays: the worker's heartbeat notices the job is gone and stops ffmpeg", { timeout: 120_000 }, async () => {
    // The item's rows go straight from the database (as a delete in another process would leave
    // them), its folder stays writable: nothing but the heartbeat can tell ffmpeg to stop.
    const { server, admin } = await start();
    const item = await uploadFile(admin, longSource(90));
    const key = keyOf(item.url);
    await until('ffmpeg converting the item', async () => ffmpegProcessesFor(key).length > 0 && (await mediaRow(server, item.id))?.status === 'processing');
    const running = ffmpegProcessesFor(key);
    await server.sql.execute('PRAGMA foreign_keys = ON');
    await server.sql.execute({ sql: 'DELETE FROM media WHERE id = ?', args: [item.id] });
    expect((await server.sql.execute({ sql: 'SELECT count(*) AS n FROM jobs WHERE media_id = ?', args: [item.id] })).rows[0]!.n).toBe(0);
    const deletedAt = Date.now();
    // A heartbeat every second: the worker sees the job gone, kills ffmpeg, and says so once
    // ffmpeg has closed (ffmpeg alone may be absent for a moment between two passes).
    await until('the worker says the conversion was cancelled', async () => server.output().includes(`video ${item.id}: conversion cancelled (item deleted or reprocessed)`), 5_000);
    expect(Date.now() - deletedAt).toBeLessThan(5_000);
    // The ffmpeg that was running has ended (and was reaped), and no other took its place.
    for (const pid of running) expect(fs.existsSync(`/proc/${pid}`)).toBe(false);
    expect(ffmpegProcessesFor(key)).toEqual([]);
    // ffmpeg did not stop for want of a folder: it is still there.
    expect(fs.existsSync(path.join(server.mediaDir, key))).toBe(true);
  });

  test('two worker processes on one database never run the same job', { timeout: 180_000 }, async () => {
    const { server, admin } = await start({ WORKER: 'off' });
    expect(server.output()).toMatch(/Video worker off/);
    const items = [];
    for (let i = 0; i < 4; i++) items.push(await uploadFile(admin, source(i % 2 ? 'H.264 MKV without audio' : 'MPEG-4 Part 2 AVI with PCM audio'), `Clip ${i}`));
    const logs: string[] = ['', ''];
    for (const n of [0, 1]) {
      const w = spawnApp('scripts/worker.mjs', [], { ...process.env, DATABASE_URL: server.databaseUrl, MEDIA_DIR: server.mediaDir, DEMO_CONTENT: 'false', ADMIN_PASSWORD: 'admin-password-123', JOB_POLL_MS: '50' });
      w.stdout!.on('data', (c: Buffer) => (logs[n] += c.toString()));
      w.stderr!.on('data', (c: Buffer) => (logs[n] += c.toString()));
      workers.push(w);
    }
    await until(
      'all ready',
      async () => {
        const r = await server.sql.execute("SELECT count(*) AS n FROM media WHERE type = 'video' AND processing_status = 'ready'");
        return Number(r.rows[0]!.n) === items.length;
      },
      150_000,
    );
    const jobs = (await server.sql.execute('SELECT media_id, status, attempts FROM jobs ORDER BY media_id')).rows;
    expect(jobs.map((j) => [Number(j.media_id), j.status, Number(j.attempts)])).toEqual(items.map((i) => [i.id, 'done', 1]));
    // Each item was converted by exactly one of the two workers.
    for (const i of items) {
      const by = logs.map((l) => (l.match(new RegExp(`video ${i.id}: ready`, 'g')) ?? []).length);
      expect(by[0]! + by[1]!, `item ${i.id}: ${by}`).toBe(1);
    }
  });

  test('without ffmpeg the app starts, says videos will wait, and converts them once ffmpeg is there', { timeout: 120_000 }, async () => {
    // Our own folder: stop() keeps a folder it was given, so the second start finds the data.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-no-ffmpeg-'));
    const { server, admin } = await start({ FFMPEG_PATH: '/nonexistent/ffmpeg', FFPROBE_PATH: '/nonexistent/ffprobe' }, dir);
    await until('the warning', async () => /videos will wait/.test(server.output()), 10_000);
    const item = await uploadFile(admin, source('H.264/AAC MP4 (remux)'));
    const waiting = await admin.json('GET', `/api/media/${item.id}/processing`);
    expect(waiting.body).toMatchObject({ processingStatus: 'queued', playbackUrl: item.url });
    expect((await admin.get('/')).status).toBe(200);
    await server.stop();
    servers.splice(servers.indexOf(server), 1);

    // ffmpeg "installed": the same data, started with the real tools.
    const again = await start({}, dir);
    await until('ready', async () => (await mediaRow(again.server, item.id))?.status === 'ready', 100_000).catch((e) => {
      throw new Error(`${e.message}\n${again.server.output()}`);
    });
    const live = await again.admin.json('GET', `/api/media/${item.id}/processing`);
    expect(live.body.playbackUrl).toMatch(/720p\.mp4\?v=\d+$/);
    await again.server.stop();
    servers.splice(servers.indexOf(again.server), 1);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
