// Read-then-write paths raced by two processes on one database: the embedded file here, a
// libSQL server (sqld, over the WebSocket) in the vitest project "sqld" (issue 44). Each
// guarantee rests on one write transaction (BEGIN IMMEDIATE) holding the read and the write
// together; in one process the embedded client's lock alone would hide a broken one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { Session, staffSession } from '../helpers/http.ts';
import { createImage, createVideo } from '../helpers/portal-fixtures.ts';
import { until } from '../helpers/until.ts';
import { startClaimers } from '../helpers/claimers.ts';

let dir: string;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-races-'));
  // WORKER=off: the only job claimers are the test's own.
  [a, b] = await Promise.all([startServer({ dir, env: { WORKER: 'off' } }), startServer({ dir, env: { WORKER: 'off' } })]);
}, 120_000);

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});
/** Alternates the requests between the two processes. */
const either = (i: number) => (i % 2 ? a : b);

const GUESSER = '127.0.0.7';

test('sign-in throttle: of 50 wrong tries split over two processes at most 5 are verified, the rest answer 429', async () => {
  const answers = await Promise.all(
    // From an address of its own, so the other tests' sign-ins are not throttled.
    Array.from({ length: 50 }, (_, i) => new Session(either(i).url, GUESSER).json('POST', '/api/login', { username: ADMIN.username, password: `wrong-${i}` })),
  );
  const t = tally(answers.map((r) => r.status));
  expect((t[401] ?? 0) + (t[429] ?? 0), JSON.stringify(t)).toBe(50);
  expect(t[401] ?? 0, JSON.stringify(t)).toBeLessThanOrEqual(5);
  // Every verified try was counted: the pair's window is full on both processes.
  for (const s of [a, b]) expect((await new Session(s.url, GUESSER).json('POST', '/api/login', { username: ADMIN.username, password: ADMIN.password })).status).toBe(429);
});

test('watch-page slugs: 20 items renamed to one title at once over two processes get 20 different slugs', async () => {
  const items = await Promise.all(Array.from({ length: 20 }, (_, i) => createImage(a, { title: `Before ${i}` })));
  const sessions = [await staffSession(a.url, ADMIN.username, ADMIN.password), await staffSession(b.url, ADMIN.username, ADMIN.password)];
  // Each rename reads the slugs taken, then writes the first free one (src/server/media/slugs.ts).
  const answers = await Promise.all(items.map((m, i) => sessions[i % 2]!.json('PUT', `/api/media/${m.id}`, { title: 'One Title' })));
  expect(answers.map((r) => r.status)).toEqual(items.map(() => 200));
  const slugs = answers.map((r) => String(r.body.slug));
  expect(new Set(slugs).size).toBe(20);
  for (const s of slugs) expect(s).toMatch(/^one-title(-\d+)?$/);
});

/** A claim run that makes no progress this long has stopped (a claim takes milliseconds). */
const STALLED_MS = 30_000;

// Four claimers of a thousand jobs: on sqld with SQLite's automatic checkpoint after each
// commit, writers from several clients stopped for good after 105 to 1,514 claims (issue 44,
// docs/database.md "The checkpoint hang"); scripts/sqld.mjs starts it checkpointing on a timer.
test.each([
  { claimers: 2, jobs: 1000 },
  { claimers: 4, jobs: 2000 },
])('job claims: $claimers processes claiming $jobs queued jobs at once take every job exactly once', { timeout: 300_000 }, async ({ claimers: count, jobs: JOBS }) => {
  const video = await createVideo(a);
  const version = Number((await a.sql.execute({ sql: 'SELECT id FROM media_versions WHERE media_id = ?', args: [video.id] })).rows[0]!.id);
  await a.sql.execute({
    sql: `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
          INSERT INTO jobs (kind, media_id, version_id) SELECT 'transcode', ?, ? FROM n`,
    args: [JOBS, video.id, version],
  });
  const run = await startClaimers([a, b], count);
  try {
    run.go();
    let progress = { claimed: -1, at: Date.now() };
    const got = await until('the claimers done', async () => {
      run.failed();
      if (run.claimers.every((c) => c.claimed())) return run.claimers.map((c) => c.claimed()!);
      const claimed = Number((await a.sql.execute({ sql: "SELECT count(*) AS n FROM jobs WHERE media_id = ? AND status = 'running'", args: [video.id] })).rows[0]!.n);
      if (claimed !== progress.claimed) progress = { claimed, at: Date.now() };
      else if (Date.now() - progress.at > STALLED_MS) throw new Error(`claims stopped at ${claimed} of ${JOBS} for ${STALLED_MS / 1000} s`);
      return null;
    }, 280_000);
    const all = got.flat();
    // All really raced (each began claiming before any had finished; on the embedded file one
    // can wait out the whole queue in SQLite's busy backoff, so a share of the jobs is not
    // required), and no job went to two (nor twice to one).
    const spans = run.claimers.map((c) => c.span());
    expect(Math.max(...spans.map((s) => s[0])), `claimed ${got.map((g) => g.length).join(' and ')}`).toBeLessThanOrEqual(Math.min(...spans.map((s) => s[1])));
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(JOBS);
    const rows = (await a.sql.execute({ sql: 'SELECT status, attempts, count(*) AS n FROM jobs WHERE media_id = ? GROUP BY 1, 2', args: [video.id] })).rows;
    expect(rows.map((r) => [r.status, Number(r.attempts), Number(r.n)])).toEqual([['running', 1, JOBS]]);
  } finally {
    run.kill();
  }
});
