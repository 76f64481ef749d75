// The proxy ladder (issue 33): 360p for every video, 2160p only from 4K, never upscaled, each
// proxy labelled by its real short side (ffprobe of the file), and ready videos made by an
// older ladder upgraded by the backfill while they keep playing.
import path from 'node:path';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, storedLocalPath, type TestServer } from '../helpers/server.ts';
import type { Session } from '../helpers/http.ts';
import { adminSession } from '../helpers/accounts.ts';
import { folderFiles, upload } from '../helpers/media-uploads.ts';
import { probeOutput, sizedSource } from '../helpers/video-sources.ts';

let server: TestServer;
let admin: Session;

beforeAll(async () => {
  server = await startServer({ env: { JOB_POLL_MS: '200' } });
  admin = await adminSession(server.url);
});
afterAll(() => server?.stop());

async function settled(id: number, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await admin.json('GET', `/api/media/${id}/processing`);
    expect(r.status).toBe(200);
    if (r.body.processingStatus === 'ready' || r.body.processingStatus === 'failed') return r.body;
    if (Date.now() > until) throw new Error(`item ${id} still ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 150));
  }
}

async function converted(file: string) {
  const up = await upload(admin, { title: path.basename(file) }, { data: fs.readFileSync(file), name: path.basename(file) });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  const live = await settled(up.body.id);
  expect(live.processingStatus, live.processingError ?? '').toBe('ready');
  return { id: up.body.id as number, url: up.body.url as string, live };
}

function fileOf(url: string): [string, string] {
  const [, key, variant] = /\/media\/([a-f0-9]{32})\/([^?]+)/.exec(url)!;
  return [key!, variant!];
}

type Rung = [label: string, file: string, width: number, height: number];

describe('ladder sizes per source size, never upscaled, labelled by the real short side', () => {
  test.each<[string, string, 'avi' | 'remux', Rung[]]>([
    ['320x180: only its own size', '320x180', 'avi', [['180p', '720p.mp4', 320, 180]]],
    ['640x360: one proxy, called 360p (not 720p)', '640x360', 'avi', [['360p', '720p.mp4', 640, 360]]],
    ['1280x720: 720 and 360', '1280x720', 'avi', [['720p', '720p.mp4', 1280, 720], ['360p', '360p.mp4', 640, 360]]],
    ['1024x576: its own size and 360', '1024x576', 'avi', [['576p', '720p.mp4', 1024, 576], ['360p', '360p.mp4', 640, 360]]],
    ['1920x1080: 1080, 720 and 360', '1920x1080', 'avi', [['1080p', '1080p.mp4', 1920, 1080], ['720p', '720p.mp4', 1280, 720], ['360p', '360p.mp4', 640, 360]]],
    ['2560x1440: no 2160 from a source under 4K', '2560x1440', 'avi', [['1080p', '1080p.mp4', 1920, 1080], ['720p', '720p.mp4', 1280, 720], ['360p', '360p.mp4', 640, 360]]],
    [
      '3840x2160: 2160, 1080, 720 and 360',
      '3840x2160',
      'avi',
      [['2160p', '2160p.mp4', 3840, 2160], ['1080p', '1080p.mp4', 1920, 1080], ['720p', '720p.mp4', 1280, 720], ['360p', '360p.mp4', 640, 360]],
    ],
    ['1280x720 H.264/AAC MP4: copied, plus 360 encoded', '1280x720', 'remux', [['720p', '720p.mp4', 1280, 720], ['360p', '360p.mp4', 640, 360]]],
  ])('%s', { timeout: 180_000 }, async (_name, size, kind, want) => {
    const { id, url, live } = await converted(sizedSource(size, kind));
    expect(live.renditions.map((r: any) => [r.label, fileOf(r.url)[1], r.width, r.height])).toEqual(want);
    // The one file players get by default is never the 2160p one.
    expect(live.playbackUrl).toBe(live.renditions.find((r: any) => Math.min(r.width, r.height) <= 1080).url);
    for (const r of live.renditions) {
      const out = probeOutput(await storedLocalPath(server, ...fileOf(r.url)));
      // The label is the file's real short side.
      expect(`${Math.min(out.width, out.height)}p`, r.url).toBe(r.label);
      expect([out.videoCodec, out.pixFmt, out.width, out.height]).toEqual(['h264', 'yuv420p', r.width, r.height]);
      expect(out.hasAudio).toBe(true);
    }
    const jobs = await server.sql.execute({ sql: 'SELECT path FROM jobs WHERE media_id = ?', args: [id] });
    expect(jobs.rows.map((j) => j.path)).toEqual([kind === 'remux' ? 'remux' : 'transcode']);
    if (kind === 'remux') {
      // The top rung is the source copied (its own profile survives); the rest are encodes.
      const profiles = await Promise.all(live.renditions.map(async (r: any) => probeOutput(await storedLocalPath(server, ...fileOf(r.url))).profile));
      expect(profiles).toEqual(['Constrained Baseline', 'High']);
    }
    // No proxy file beyond the ladder's.
    expect(folderFiles(server.mediaDir, url).filter((f) => f.endsWith('p.mp4'))).toEqual(want.map((w) => w[1]).sort());
  });
});

describe('the backfill upgrades videos made by the older ladder', () => {
  test('a ready 1280x720 video without its 360p gets it, and plays its old files meanwhile', { timeout: 180_000 }, async () => {
    const { id, url, live } = await converted(sizedSource('1280x720'));
    const [key] = fileOf(url);
    // As the previous ladder left it: one 720p proxy, no ladder mark, no 360p file.
    const old = [{ label: '720p', variant: '720p.mp4', width: 1280, height: 720, version: 1 }];
    for (const table of ['media', 'media_versions']) {
      await server.sql.execute({ sql: `UPDATE ${table} SET renditions = ? WHERE storage_key = ?`, args: [JSON.stringify(old), key] });
    }
    fs.rmSync(await storedLocalPath(server, key, '360p.mp4'));
    expect(live.renditions).toHaveLength(2);

    await server.restart();
    // Still ready with what it had while the upgrade is queued or running.
    const during = await admin.json('GET', `/api/media/${id}/processing`);
    expect(during.body.processingStatus).toBe('ready');
    expect(during.body.renditions.length).toBeGreaterThanOrEqual(1);

    const until = Date.now() + 120_000;
    let now: any;
    for (;;) {
      now = (await admin.json('GET', `/api/media/${id}/processing`)).body;
      expect(now.processingStatus).toBe('ready');
      if (now.renditions.length === 2) break;
      if (Date.now() > until) throw new Error(`not upgraded: ${JSON.stringify(now)}`);
      await new Promise((res) => setTimeout(res, 200));
    }
    expect(now.renditions.map((r: any) => [r.label, r.width, r.height])).toEqual([['720p', 1280, 720], ['360p', 640, 360]]);
    expect(probeOutput(await storedLocalPath(server, key, '360p.mp4')).height).toBe(360);
    const jobs = await server.sql.execute({ sql: 'SELECT kind, status FROM jobs WHERE media_id = ? ORDER BY id', args: [id] });
    expect(jobs.rows.map((j) => [j.kind, j.status])).toEqual([['transcode', 'done'], ['upgrade', 'done']]);

    // Upgraded once: the next start queues nothing for it.
    await server.restart();
    await new Promise((res) => setTimeout(res, 1000));
    const again = await server.sql.execute({ sql: 'SELECT count(*) AS n FROM jobs WHERE media_id = ?', args: [id] });
    expect(Number(again.rows[0]!.n)).toBe(2);
  });
});
