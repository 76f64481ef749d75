// Existing libraries are repaired on upgrade (issue 39): renditions made before frame times were
// kept (their pictures a frame late, as the last release's AAC priming left them) are found when
// the worker starts, made again through the job queue newest first, checked before they replace
// anything, and the item keeps playing throughout; renditions that were already exact are only
// re-marked. Nothing else changes: notes, originals and rows stay as they were.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startServer, storedLocalPath, type TestServer } from '../helpers/server.ts';
import { clientSession, Session, staffSession } from '../helpers/http.ts';
import { createClientWithLogin } from '../helpers/accounts.ts';
import { upload } from '../helpers/media-uploads.ts';
import { until } from '../helpers/until.ts';
import { frameNumbers, frameSource, frameTimes, specName, type FrameSourceSpec } from '../helpers/frame-fixture.ts';
import { frameTimesOff } from '../../src/server/jobs/frame-check.ts';
import { FRAGMENTED_MOVFLAGS } from '../../src/server/media/hls.ts';

let server: TestServer;
let admin: Session;

beforeAll(async () => {
  server = await startServer({ env: { JOB_POLL_MS: '200' } });
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
});
afterAll(() => server?.stop());

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const rows = async (sql: string, args: (string | number)[] = []) => (await server.sql.execute({ sql, args })).rows;

async function converted(spec: FrameSourceSpec) {
  const file = frameSource(spec);
  const up = await upload(admin, { title: specName(spec) }, { data: fs.readFileSync(file), name: path.basename(file) });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  await until(`${specName(spec)} converted`, async () => {
    const open = await rows("SELECT count(*) AS n FROM jobs WHERE media_id = ? AND status IN ('queued', 'running')", [up.body.id]);
    const live = (await admin.json('GET', `/api/media/${up.body.id}/processing`)).body;
    return live.processingStatus === 'ready' && Number(open[0]!.n) === 0;
  }, 120_000);
  return { id: up.body.id as number, spec };
}

async function renditionFiles(id: number): Promise<string[]> {
  const [v] = await rows('SELECT v.storage_key, v.renditions FROM media_versions v JOIN media m ON m.storage_key = v.storage_key WHERE m.id = ?', [id]);
  const list = JSON.parse(String(v!.renditions)) as { variant: string }[];
  return Promise.all(list.map((r) => storedLocalPath(server, String(v!.storage_key), r.variant)));
}

/**
 * What the last release made of a file with sound: the same pictures, the sound encoded with its
 * priming handed to the muxer before 0, which moved every picture after the first 21.3 ms late.
 */
function asLastReleaseMadeIt(file: string) {
  const out = `${file}.old.mp4`;
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', file, '-map', '0', '-c:v', 'copy', '-c:a', 'aac', '-movflags', FRAGMENTED_MOVFLAGS, '-f', 'mp4', out]);
  fs.renameSync(out, file);
}

describe('a library made before frame times were kept', () => {
  const items: { id: number; spec: FrameSourceSpec; late: boolean }[] = [];
  const before = new Map<string, string>();
  /** What the frame check said of each planted file, before the upgrade. */
  const planted: { late: boolean; off: string | null }[] = [];
  let originals: Map<number, string>;
  let noteId: number;
  let playing: { status: string; fileStatus: number }[] = [];

  beforeAll(async () => {
    const specs: [FrameSourceSpec, boolean][] = [
      [{ rate: '25', seconds: 2, video: 'prores', audio: { codec: 'pcm', sampleRate: 48000 }, container: 'mov' }, true],
      [{ rate: '30000/1001', seconds: 2, video: 'h264', audio: { codec: 'aac', sampleRate: 44100 }, container: 'mp4' }, true],
      // Silent: the last release made it exact already; it is only re-marked.
      [{ rate: '25', seconds: 2, video: 'mpeg4', audio: null, container: 'avi' }, false],
    ];
    for (const [spec, late] of specs) items.push({ ...(await converted(spec)), late });
    noteId = (await admin.json('POST', `/api/media/${items[0]!.id}/timeline-notes`, { text: 'Cut on the clap', timestampMs: 1240 })).body.id;
    expect(noteId).toBeGreaterThan(0);
    originals = new Map();
    for (const { id } of items) {
      const [v] = await rows('SELECT storage_key, url FROM media_versions v WHERE v.media_id = ?', [id]);
      originals.set(id, sha(await storedLocalPath(server, String(v!.storage_key), String(v!.url).split('/').pop()!)));
    }

    // The last release's library: its renditions as it made them, marked with its ladder (3).
    await server.kill();
    for (const item of items) {
      const { id, late } = item;
      for (const file of await renditionFiles(id)) {
        if (late) asLastReleaseMadeIt(file);
        before.set(file, sha(file));
        planted.push({ late, off: await frameTimesOff(file, item.spec.rate.split('/').map(Number).reduce((n, d) => n / d)) });
      }
    }
    await server.sql.execute("UPDATE media_versions SET renditions = (SELECT json_group_array(json_set(r.value, '$.ladder', 3)) FROM json_each(renditions) r) WHERE renditions IS NOT NULL");
    await server.sql.execute("UPDATE media_versions SET probe = json_remove(probe, '$.frameRate', '$.variableRate', '$.videoStart')");

    // Upgraded: the worker starts, finds them and repairs them; meanwhile each item keeps playing.
    await server.restart();
    admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
    await until('the repair done', async () => {
      for (const { id } of items) {
        const live = (await admin.json('GET', `/api/media/${id}/processing`)).body;
        const res = await admin.get(live.playbackUrl, { Range: 'bytes=0-0' });
        await res.arrayBuffer();
        playing.push({ status: live.processingStatus, fileStatus: res.status });
      }
      const open = await rows("SELECT count(*) AS n FROM jobs WHERE kind = 'repair' AND status IN ('queued', 'running')");
      const all = await rows("SELECT count(*) AS n FROM jobs WHERE kind = 'repair'");
      return Number(all[0]!.n) === items.length && Number(open[0]!.n) === 0;
    }, 180_000);
  }, 400_000);

  test('the planted renditions really were a frame late, and the silent ones exact (else this tests nothing)', () => {
    expect(planted.length).toBeGreaterThanOrEqual(items.length);
    for (const p of planted) expect(p.off === null, JSON.stringify(p)).toBe(!p.late);
  });

  test('every repair job finished, newest version first; late ones made again, exact ones only checked', async () => {
    const jobs = await rows("SELECT j.media_id, j.version_id, j.status, j.path FROM jobs j WHERE j.kind = 'repair' ORDER BY j.finished_at, j.id");
    expect(jobs.map((j) => j.status)).toEqual(items.map(() => 'done'));
    const versions = jobs.map((j) => Number(j.version_id));
    expect(versions).toEqual([...versions].sort((a, b) => b - a));
    for (const { id, late } of items) {
      const job = jobs.find((j) => Number(j.media_id) === id)!;
      expect(job.path === 'checked', `item ${id}: ${job.path}`).toBe(!late);
    }
  });

  test('every rendition now shows frame k at k/fps, is marked with the new ladder, and the exact ones were not touched', async () => {
    for (const { id, spec, late } of items) {
      const fps = spec.rate.split('/').map(Number).reduce((n, d) => n / d);
      for (const file of await renditionFiles(id)) {
        expect(await frameTimesOff(file, fps), file).toBeNull();
        const numbers = frameNumbers(file);
        expect(numbers).toEqual(numbers.map((_, k) => k));
        expect(frameTimes(file).every((t, k) => Math.abs(t - k / fps) <= 0.001)).toBe(true);
        if (!late) expect(sha(file)).toBe(before.get(file));
      }
      const [v] = await rows('SELECT renditions FROM media_versions WHERE media_id = ?', [id]);
      expect(JSON.parse(String(v!.renditions)).map((r: any) => r.ladder)).toEqual(JSON.parse(String(v!.renditions)).map(() => 4));
    }
  });

  test('the items kept playing throughout: always ready, their file always answering', () => {
    expect(playing.length).toBeGreaterThan(0);
    expect(playing.filter((p) => p.status !== 'ready' || p.fileStatus !== 206)).toEqual([]);
  });

  test('nothing was lost: originals, notes and items are as they were', async () => {
    for (const { id } of items) {
      const [v] = await rows('SELECT storage_key, url FROM media_versions v WHERE v.media_id = ?', [id]);
      expect(sha(await storedLocalPath(server, String(v!.storage_key), String(v!.url).split('/').pop()!))).toBe(originals.get(id));
    }
    const [note] = await rows('SELECT note_text, timestamp_ms FROM timeline_notes WHERE id = ?', [noteId]);
    expect(note).toMatchObject({ note_text: 'Cut on the clap', timestamp_ms: 1240 });
    expect(Number((await rows('SELECT count(*) AS n FROM media'))[0]!.n)).toBe(items.length);
  });

  test('a second start queues nothing more: the library is done', async () => {
    await server.kill();
    await server.restart();
    admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
    await until('the worker started', async () => /\[worker\] started/.test(server.output()));
    expect(Number((await rows("SELECT count(*) AS n FROM jobs WHERE kind = 'repair'"))[0]!.n)).toBe(items.length);
  });
});

describe('the dashboard figure', () => {
  test('GET /api/jobs/repair is for staff: signed out and a client get 401', async () => {
    const c = await createClientWithLogin(server, { name: 'Repair Client' });
    const client = await clientSession(server.url, c.username, c.password);
    for (const who of [new Session(server.url), client]) expect((await who.json('GET', '/api/jobs/repair')).status).toBe(401);
  });

  test('counts this round: done, made again, failed; null once none is waiting', async () => {
    const [m] = await rows('SELECT id FROM media LIMIT 1');
    const mediaId = Number(m!.id);
    const now = Date.now();
    const insert = (status: string, p: string | null) =>
      server.sql.execute({ sql: "INSERT INTO jobs (kind, media_id, status, path, run_after, created_at) VALUES ('repair', ?, ?, ?, ?, ?)", args: [mediaId, status, p, now + 3_600_000, now] });
    // An earlier round long ago is not counted.
    await server.sql.execute({ sql: "UPDATE jobs SET created_at = ? WHERE kind = 'repair'", args: [now - 86_400_000] });
    await insert('done', 'checked');
    await insert('done', 'transcode');
    await insert('failed', null);
    await insert('queued', null);
    await insert('queued', null);
    expect((await admin.json('GET', '/api/jobs/repair')).body).toEqual({ repair: { done: 2, total: 5, remade: 1, failed: 1 } });
    await server.sql.execute("UPDATE jobs SET status = 'done', path = 'remux' WHERE kind = 'repair' AND status = 'queued'");
    expect((await admin.json('GET', '/api/jobs/repair')).body).toEqual({ repair: null });
  });
});
