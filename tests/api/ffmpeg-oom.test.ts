// An ffmpeg killed by the system (the kernel's OOM killer, a cgroup's MemoryMax) mid-conversion
// (issue 43): the worker lives on, the attempt fails naming the likely cause, and the job is
// retried with half the threads (FFMPEG_THREADS=4: 4, 2, 1). The kill is real: FFMPEG_PATH is a
// wrapper that, for a conversion run given at least $dir/limit threads, SIGKILLs itself (the
// pid the worker spawned, as the OOM killer would) and otherwise execs the real ffmpeg.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import type { Session } from '../helpers/http.ts';
import { adminSession } from '../helpers/accounts.ts';
import { upload } from '../helpers/media-uploads.ts';
import { source } from '../helpers/video-sources.ts';
import { until } from '../helpers/until.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ffmpeg-oom-'));
const runs = path.join(dir, 'runs.log');
const limit = path.join(dir, 'limit');
let server: TestServer;
let admin: Session;

/** Logs the threads of each conversion run (x264 outputs) and kills the run at or above the limit. */
function killingWrapper(): string {
  const real = execFileSync('sh', ['-c', 'command -v ffmpeg'], { encoding: 'utf8' }).trim();
  const file = path.join(dir, 'ffmpeg');
  fs.writeFileSync(
    file,
    `#!/bin/sh
t=''; enc=''; prev=''
for a in "$@"; do
  if [ "$prev" = "-threads" ] && [ -z "$t" ]; then t="$a"; fi
  if [ "$a" = "libx264" ]; then enc=1; fi
  prev="$a"
done
if [ -n "$enc" ]; then
  echo "\${t:-none}" >> '${runs}'
  if [ -n "$t" ] && [ "$t" -ge "$(cat '${limit}')" ]; then kill -9 $$; fi
fi
exec '${real}' "$@"
`,
    { mode: 0o755 },
  );
  return file;
}

/** Threads of the conversion runs so far, in order. */
const threadsRun = () => (fs.existsSync(runs) ? fs.readFileSync(runs, 'utf8').split('\n').filter(Boolean) : []);

async function settled(id: number) {
  return until(`item ${id} ready or failed`, async () => {
    const r = await admin.json('GET', `/api/media/${id}/processing`);
    expect(r.status).toBe(200);
    return ['ready', 'failed'].includes(r.body.processingStatus) ? r.body : null;
  }, 120_000);
}

async function jobOf(mediaId: number) {
  const { rows } = await server.sql.execute({ sql: 'SELECT status, attempts, ffmpeg_threads AS threads, last_error AS error FROM jobs WHERE media_id = ? ORDER BY id DESC LIMIT 1', args: [mediaId] });
  return rows[0]!;
}

async function uploadAvi(title: string): Promise<number> {
  const r = await upload(admin, { title }, { data: fs.readFileSync(source('MPEG-4 Part 2 AVI with PCM audio')), name: `${title}.avi` });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

beforeAll(async () => {
  server = await startServer({ env: { JOB_POLL_MS: '200', JOB_RETRY_BASE_MS: '0', FFMPEG_THREADS: '4', FFMPEG_PATH: killingWrapper() } });
  admin = await adminSession(server.url);
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('killed at 4 and 2 threads: retried with fewer, converted at 1, by the same living worker', { timeout: 180_000 }, async () => {
  fs.writeFileSync(limit, '2');
  fs.rmSync(runs, { force: true });
  const pid = server.proc.pid;
  const id = await uploadAvi('killed-twice');
  const done = await settled(id);
  expect(done.processingStatus).toBe('ready');
  expect(threadsRun()).toEqual(['4', '2', '1']);
  const job = await jobOf(id);
  expect(job).toMatchObject({ status: 'done', attempts: 3, threads: 1 });
  // The worker (inside this server process) was never the one killed.
  expect(server.proc.pid).toBe(pid);
  expect(server.proc.exitCode).toBeNull();
  expect(server.output()).toMatch(/attempt 1 failed: ffmpeg was killed by the system while using 4 threads, most likely for lack of memory; the next attempt uses 2 threads/);
  expect(server.output()).toMatch(/attempt 2 failed: ffmpeg was killed by the system while using 2 threads, most likely for lack of memory; the next attempt uses 1 thread\b/);
});

test('killed on every attempt: the video fails with the reason staff can act on', { timeout: 180_000 }, async () => {
  fs.writeFileSync(limit, '1');
  fs.rmSync(runs, { force: true });
  const id = await uploadAvi('always-killed');
  const done = await settled(id);
  expect(done.processingStatus).toBe('failed');
  expect(done.processingError).toMatch(/^ffmpeg was killed by the system while using 1 thread, most likely for lack of memory/);
  expect(threadsRun()).toEqual(['4', '2', '1']);
  expect(await jobOf(id)).toMatchObject({ status: 'failed', attempts: 3, threads: 1 });
  // And the worker still converts the next video once memory allows.
  fs.writeFileSync(limit, '99');
  const next = await uploadAvi('after-the-kills');
  expect((await settled(next)).processingStatus).toBe('ready');
});
