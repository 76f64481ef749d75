// Upgrades (issue 43): every earlier schema state's committed library (tests/fixtures/upgrade,
// made by scripts/upgrade-fixtures.mjs from the migrations) is started on with today's code,
// which migrates it, and checked: every row kept with its values (a column only filled where it
// was empty), every relation whole, every file byte for byte, both staff logins and the portal
// login work, the client still sees their items, the public film is listed and its watch page
// answers, the files play (ranges), and (oldest and newest state) a worker converts the video
// into proxies that play.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, startServer, type TestServer } from '../helpers/server.ts';
import { clientSession, staffSession, type Session } from '../helpers/http.ts';
import { waitSettled } from '../helpers/processing.ts';
import { until } from '../helpers/until.ts';
import { allRows, fixtureTags, readFixture, unpackFixture, type Fixture } from '../helpers/upgrade.ts';

/**
 * Counters the running app moves on by design (not the upgrade): they may only grow. Anything
 * else that changes value, or a column that disappears, fails the test.
 */
const COUNTERS = new Set(['site_state.version', 'library_state.version']);
/** Bookkeeping the app rewrites when it starts, whatever the database held. */
const BOOKKEEPING = new Set([
  // The digest sender claims the current slot (notifications/digest.ts) so no day is sent twice.
  'notification_state.digest_slot',
  // And the reviewers' due digest likewise (issue 57, rounds/due-digest.ts).
  'notification_state.review_digest_slot',
]);

const TAGS = fixtureTags();
/**
 * A conversion costs seconds per fixture: it runs on the longest upgrade path (the oldest
 * state) and the shortest (the newest); every fixture still has its files served.
 */
const CONVERTED = new Set([TAGS[0], TAGS.at(-1)]);

describe.each(TAGS)('upgrading the library of schema state %s', (tag) => {
  let fixture: Fixture;
  let dir: string;
  let server: TestServer;
  let before: Awaited<ReturnType<typeof allRows>>;
  let staff: Session;
  let worker: ChildProcess | undefined;

  beforeAll(async () => {
    fixture = readFixture(tag);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `studio-upgrade-${tag.slice(0, 4)}-`));
    unpackFixture(tag, dir);
    const old = createClient({ url: `file:${path.join(dir, 'studio.db')}` });
    before = await allRows(old);
    old.close();
    server = await startServer({ dir, env: { WORKER: 'off' } });
  });
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('every migration since is applied and the database is whole', async () => {
    const applied = await server.sql.execute('SELECT count(*) AS n FROM __drizzle_migrations');
    const journal = JSON.parse(fs.readFileSync(path.join(ROOT, 'src/db/migrations/meta/_journal.json'), 'utf8'));
    expect(Number(applied.rows[0]!.n)).toBe(journal.entries.length);
    expect(before.get('__drizzle_migrations')!.size).toBe(fixture.migrations);
    expect((await server.sql.execute('PRAGMA integrity_check')).rows.map((r) => Object.values(r)[0])).toEqual(['ok']);
    expect((await server.sql.execute('PRAGMA foreign_key_check')).rows).toEqual([]);
  });

  test('every row is kept with its values', async () => {
    const after = await allRows(server.sql);
    const lost: string[] = [];
    for (const [table, rows] of before) {
      const now = after.get(table);
      if (!now) {
        lost.push(`table ${table}`);
        continue;
      }
      for (const [key, old] of rows) {
        const row = now.get(key);
        if (!row) {
          lost.push(`${table} ${key}`);
          continue;
        }
        for (const [column, value] of Object.entries(old)) {
          const name = `${table}.${column}`;
          if (column === '__rowid' || BOOKKEEPING.has(name)) continue;
          if (!(column in row)) lost.push(`column ${name}`);
          else if (COUNTERS.has(name)) {
            if (Number(row[column]) < Number(value)) lost.push(`${name} went back from ${value} to ${row[column]}`);
          } else if (value !== null && row[column] !== value) lost.push(`${name} of ${key}: ${JSON.stringify(value)} became ${JSON.stringify(row[column])}`);
        }
      }
    }
    expect(lost).toEqual([]);
    // The library is really there (a fixture that lost its rows would pass the loop above).
    expect(before.get('media')!.size).toBe(2);
    expect(before.get('users')!.size).toBe(2);
  });

  test('every media file is kept byte for byte', () => {
    for (const [file, sha] of Object.entries(fixture.media)) {
      const bytes = fs.readFileSync(path.join(server.mediaDir, file));
      expect(createHash('sha256').update(bytes).digest('hex'), file).toBe(sha);
    }
  });

  test('staff and portal logins work, and the client still sees their items', async () => {
    for (const s of fixture.staff) await staffSession(server.url, s.username, s.password);
    staff = await staffSession(server.url, fixture.staff[0]!.username, fixture.staff[0]!.password);
    const portal = await clientSession(server.url, fixture.client.username, fixture.client.password);
    const mine = await portal.json('GET', '/api/client/media');
    expect(mine.status).toBe(200);
    const ids = (Array.isArray(mine.body) ? mine.body : mine.body.items ?? mine.body.media).map((m: { id: number }) => m.id).sort();
    expect(ids).toEqual([fixture.video.id, fixture.image.id]);
    const list = await staff.json('GET', '/api/media');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain('Harbour launch film');
  });

  test('the client approval is kept as a one-stage “Client approval” round (issue 57)', async () => {
    // From 0035 on the app keeps the rounds itself (the test above checks they are kept).
    if (before.has('review_rounds')) return;
    const decided = [...(before.get('media_versions')?.values() ?? [])].filter((v) => v.approval_status != null && v.approval_status !== 'in_review');
    // The last state before rounds has one decided version (a change asked for on the film's v1).
    if (tag.startsWith('0034_')) expect(decided.length).toBe(1);
    const kept = await server.sql.execute(`
      SELECT r.origin, r.name AS round, s.name AS stage, s.rule, d.version_id, d.decision, d.note, d.created_at, rv.client_user_id
      FROM review_decisions d JOIN review_stages s ON s.id = d.stage_id JOIN review_rounds r ON r.id = s.round_id JOIN review_stage_reviewers rv ON rv.id = d.reviewer_id
      ORDER BY d.version_id`);
    expect(kept.rows.map((r) => ({ ...r }))).toEqual(
      decided.map((v) => ({
        origin: 'approval',
        round: 'Client approval',
        stage: 'Client approval',
        rule: 'any',
        version_id: v.id,
        decision: v.approval_status === 'approved' ? 'approve' : 'request_changes',
        note: v.approval_note ?? '',
        created_at: v.approval_at ?? v.created_at,
        client_user_id: v.approval_by ?? null,
      })),
    );
    const board = await staff.json('GET', `/api/media/${fixture.video.id}/round`);
    expect(board.status).toBe(200);
    const current = decided.find((v) => v.media_id === fixture.video.id);
    if (current) expect(board.body.round).toMatchObject({ origin: 'approval', name: 'Client approval', status: current.approval_status });
    else expect(board.body.round).toBeNull();
  });

  test('the files play: ranges of the video, the image whole, the public film listed with its watch page', async () => {
    const video = await staff.get(`/media/${fixture.video.key}/original.mp4`, { Range: 'bytes=0-1023' });
    expect(video.status).toBe(206);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    const original = fs.readFileSync(path.join(server.mediaDir, fixture.video.key, 'original.mp4'));
    expect(Buffer.from(await video.arrayBuffer()).equals(original.subarray(0, 1024))).toBe(true);
    const image = await staff.get(`/media/${fixture.image.key}/original.png`);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).equals(fs.readFileSync(path.join(server.mediaDir, fixture.image.key, 'original.png')))).toBe(true);
    const portfolio = await (await fetch(`${server.url}/portfolio`)).text();
    expect(portfolio).toContain('Harbour launch film');
    const slug = (await server.sql.execute({ sql: 'SELECT slug FROM media WHERE id = ?', args: [fixture.video.id] })).rows[0]!.slug;
    expect((await fetch(`${server.url}/portfolio/${slug}`)).status).toBe(200);
  });

  test.runIf(CONVERTED.has(tag))('a worker converts the video into proxies that play', async () => {
    let log = '';
    worker = spawn(process.execPath, [path.join(ROOT, 'scripts/worker.mjs')], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: `file:${server.dbFile}`, MEDIA_DIR: server.mediaDir, NOTIFY_DIR: path.join(dir, 'outbox'), DEMO_CONTENT: 'false', JOB_POLL_MS: '100' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout!.on('data', (c: Buffer) => (log += c));
    worker.stderr!.on('data', (c: Buffer) => (log += c));
    await until('the worker to start', async () => log.includes('STUDIO_WORKER_READY') || worker!.exitCode !== null);
    expect(worker.exitCode, log).toBeNull();
    const settled = await waitSettled(staff, fixture.video.id);
    expect(settled.processingStatus, log).toBe('ready');
    const proxy = JSON.stringify(settled).match(/\/media\/[a-f0-9]{32}\/\d+p\.mp4/)?.[0];
    expect(proxy, JSON.stringify(settled)).toBeTruthy();
    const res = await staff.get(proxy!, { Range: 'bytes=0-99' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-type')).toBe('video/mp4');
  }, 120_000);
});
