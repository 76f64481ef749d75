// The proxy ladder (issue 33): 360p for every video, 2160p only from 4K, never upscaled, each
// proxy labelled by its real short side (ffprobe of the file), and ready videos made by an
// older ladder upgraded by the backfill while they keep playing. Every proxy's first picture is
// at 0 (frame-exact notes), and the streamed ones are described by valid HLS playlists whose byte
// ranges land on the file's own boxes.
import path from 'node:path';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, storedLocalPath, type TestServer } from '../helpers/server.ts';
import type { Session } from '../helpers/http.ts';
import { adminSession } from '../helpers/accounts.ts';
import { folderFiles, upload } from '../helpers/media-uploads.ts';
import { probeOutput, sizedSource, unevenSource } from '../helpers/video-sources.ts';
import { boxAt, parseMaster, parseMedia, topLevelBoxes } from '../helpers/hls.ts';
import { waitSettled } from '../helpers/processing.ts';

let server: TestServer;
let admin: Session;

beforeAll(async () => {
  server = await startServer({ env: { JOB_POLL_MS: '200' } });
  admin = await adminSession(server.url);
});
afterAll(() => server?.stop());

async function converted(file: string) {
  const up = await upload(admin, { title: path.basename(file) }, { data: fs.readFileSync(file), name: path.basename(file) });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  const live = await waitSettled(admin, up.body.id, 120_000);
  expect(live.processingStatus, live.processingError ?? '').toBe('ready');
  return { id: up.body.id as number, url: up.body.url as string, live };
}

function fileOf(url: string): [string, string] {
  const [, key, variant] = /\/media\/([a-f0-9]{32})\/([^?]+)/.exec(url)!;
  return [key!, variant!];
}

type Rung = [label: string, file: string, width: number, height: number];

/** Polls until the item's proxies number `n` (a remux's smaller rungs come in a second job). */
async function withRenditions(id: number, n: number, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const live = (await admin.json('GET', `/api/media/${id}/processing`)).body;
    expect(live.processingStatus).toBe('ready');
    if (live.renditions.length === n) return live;
    if (Date.now() > until) throw new Error(`item ${id} has ${JSON.stringify(live.renditions)}`);
    await new Promise((res) => setTimeout(res, 150));
  }
}

/** The master and media playlists of a version, checked against the files they describe. */
async function expectPlaylists(live: any, streamed: Rung[], seconds = 1) {
  const peaks: { bandwidth: number; average: number; segments: { seconds: number; length: number }[] }[] = [];
  if (!streamed.length) {
    expect(live.streamUrl).toBeNull();
    return peaks;
  }
  expect(live.streamUrl).toMatch(/\/master\.m3u8\?v=\d+$/);
  const master = await admin.get(live.streamUrl);
  expect(master.status).toBe(200);
  expect(master.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
  const entries = parseMaster(await master.text());
  // Every streamed size, the player's default (largest up to 1080p) first.
  const start = streamed.find((r) => Math.min(r[2], r[3]) <= 1080)!;
  expect(entries.map((e) => e.resolution)).toEqual([start, ...streamed.filter((r) => r !== start)].map((r) => [r[2], r[3]]));
  for (const e of entries) {
    expect(e.codecs).toMatch(/^avc1\.[0-9a-f]{6},mp4a\.40\.2$/);
    const rung = streamed.find((r) => r[2] === e.resolution[0] && r[3] === e.resolution[1])!;
    const at = new URL(e.uri, new URL(live.streamUrl, server.url));
    const res = await admin.get(at.pathname + at.search);
    expect(res.status).toBe(200);
    const pl = parseMedia(await res.text());
    expect([pl.vod, pl.ended, pl.version >= 7]).toEqual([true, true, true]);
    const file = await storedLocalPath(server, ...fileOf(new URL(pl.map.uri, new URL(live.streamUrl, server.url)).pathname));
    expect(file.endsWith(rung[1])).toBe(true);
    const size = fs.statSync(file).size;
    // Where the file's own boxes begin, and its end: every range must start and end on one.
    const boxes = topLevelBoxes(file);
    const edges = new Set([...boxes.map((b) => b.start), size]);
    // The init section is ftyp+moov at the start; every segment starts at a moof box, follows
    // the one before without a gap, and ends exactly where the next box (the next moof, the
    // trailing mfra) or the file begins or ends: one byte short or over is a broken fragment.
    expect([pl.map.offset, boxAt(file, 0)]).toEqual([0, 'ftyp']);
    expect(boxes.find((b) => b.type === 'moov')).toMatchObject({ start: boxes[0]!.size });
    expect(pl.map.length).toBe(boxes[0]!.size + boxes[1]!.size);
    let next = pl.segments[0]!.offset;
    expect(next).toBeGreaterThanOrEqual(pl.map.length);
    for (const seg of pl.segments) {
      expect(seg.offset).toBe(next);
      expect(boxAt(file, seg.offset)).toBe('moof');
      expect(edges.has(seg.offset + seg.length), `segment ${seg.length}@${seg.offset} ends inside a box`).toBe(true);
      expect(seg.seconds).toBeLessThanOrEqual(pl.targetDuration);
      next += seg.length;
    }
    // The last fragment's media is the file's last moof+mdat: nothing of the picture left out.
    const lastMdat = boxes.findLast((b) => b.type === 'mdat')!;
    expect(next).toBe(lastMdat.start + lastMdat.size);
    expect(pl.segments.length).toBe(boxes.filter((b) => b.type === 'moof').length);
    expect(pl.segments.reduce((t, x) => t + x.seconds, 0)).toBeCloseTo(seconds, 1);
    // BANDWIDTH covers the peak segment (RFC 8216 4.3.4.2), not only the average.
    expect(e.bandwidth).toBeGreaterThanOrEqual(Math.max(...pl.segments.map((x) => (x.length * 8) / x.seconds)) - 1);
    peaks.push({ bandwidth: e.bandwidth, average: e.averageBandwidth!, segments: pl.segments });
  }
  return peaks;
}

describe('ladder sizes per source size, never upscaled, labelled by the real short side', () => {
  test.each<[string, string, 'avi' | 'remux' | 'remux-bframes', Rung[]]>([
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
    ['1280x720 H.264 with B-frames: copied as a plain file, 360 encoded', '1280x720', 'remux-bframes', [['720p', '720p.mp4', 1280, 720], ['360p', '360p.mp4', 640, 360]]],
  ])('%s', { timeout: 180_000 }, async (_name, size, kind, want) => {
    const converted1 = await converted(sizedSource(size, kind));
    const { id, url } = converted1;
    const remux = kind !== 'avi';
    // A remux is ready with its copy; the smaller rungs follow in an upgrade job.
    const live = remux ? await withRenditions(id, want.length) : converted1.live;
    expect(live.renditions.map((r: any) => [r.label, fileOf(r.url)[1], r.width, r.height])).toEqual(want);
    // The one file players get by default is never the 2160p one.
    expect(live.playbackUrl).toBe(live.renditions.find((r: any) => Math.min(r.width, r.height) <= 1080).url);
    for (const r of live.renditions) {
      const out = probeOutput(await storedLocalPath(server, ...fileOf(r.url)));
      // The label is the file's real short side.
      expect(`${Math.min(out.width, out.height)}p`, r.url).toBe(r.label);
      expect([out.videoCodec, out.pixFmt, out.width, out.height]).toEqual(['h264', 'yuv420p', r.width, r.height]);
      expect(out.hasAudio).toBe(true);
      // The first picture at 0: a note's time is the frame the reviewer saw (no B-frame delay).
      expect(out.keyframes[0], r.url).toBe(0);
    }
    const jobs = await server.sql.execute({ sql: 'SELECT kind, status, path FROM jobs WHERE media_id = ? ORDER BY id', args: [id] });
    expect(jobs.rows.map((j) => [j.kind, j.status, j.path])).toEqual(
      remux ? [['transcode', 'done', 'remux'], ['upgrade', 'done', 'remux']] : [['transcode', 'done', 'transcode']],
    );
    // A copy of a stream with B-frames keeps its edit list as a plain file, outside the stream.
    await expectPlaylists(live, kind === 'remux-bframes' ? want.slice(1) : want);
    if (kind === 'remux') {
      // The top rung is the source copied (its own profile survives); the rest are encodes.
      const profiles = await Promise.all(live.renditions.map(async (r: any) => probeOutput(await storedLocalPath(server, ...fileOf(r.url))).profile));
      expect(profiles).toEqual(['Constrained Baseline', 'High']);
    }
    if (kind === 'remux-bframes') {
      // The copy reorders frames (its B-frames survive) and is a plain faststart file: no
      // fragments, no playlist of its own.
      const copy = await storedLocalPath(server, ...fileOf(live.renditions[0].url));
      expect(fs.readFileSync(copy).includes('moof')).toBe(false);
      expect((await admin.get(live.renditions[0].url.replace(/\.mp4\?.*$/, '.m3u8'))).status).toBe(404);
    }
    // Playlists only beside streamed proxies.
    expect(folderFiles(server.mediaDir, url).filter((f) => f.endsWith('.m3u8')).sort()).toEqual(
      [...(kind === 'remux-bframes' ? want.slice(1) : want).map((w) => w[1].replace('.mp4', '.m3u8')), 'master.m3u8'].sort(),
    );
    // No proxy file beyond the ladder's.
    expect(folderFiles(server.mediaDir, url).filter((f) => f.endsWith('p.mp4'))).toEqual(want.map((w) => w[1]).sort());
  });
});

// Issue 40: the 1 s clips above make one fragment, so neither contiguity nor the peak was ever
// compared. 7 s with a keyframe every 2 s make four, the last three seconds of noise
// (4-6 s weighs several times 0-2 s), so a BANDWIDTH that is the average falls short.
describe('HLS of a 7 s video with a heavy end: several fragments', () => {
  test.each<['avi' | 'remux', Rung[]]>([
    ['avi', [['360p', '720p.mp4', 640, 360]]],
    ['remux', [['360p', '720p.mp4', 640, 360]]],
  ])('%s: contiguous ranges ending on box edges, BANDWIDTH at the peak fragment', { timeout: 180_000 }, async (kind, want) => {
    const { live } = await converted(unevenSource(kind));
    expect(live.renditions.map((r: any) => [r.label, fileOf(r.url)[1], r.width, r.height])).toEqual(want);
    const [variant] = await expectPlaylists(live, want, 7);
    expect(variant!.segments.length).toBeGreaterThanOrEqual(3);
    // The clip really has a peak well above its average, so the check above compared something.
    const rates = variant!.segments.map((x) => (x.length * 8) / x.seconds);
    expect(Math.max(...rates)).toBeGreaterThan(variant!.average * 1.3);
    expect(variant!.bandwidth).toBeGreaterThan(variant!.average * 1.3);
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
    // The restarted server listens on a port of its own (the old process is gone, issue 40);
    // the session lives on in the database.
    admin = await adminSession(server.url);
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
    expect(jobs.rows.map((j) => [j.kind, j.status])).toEqual([['transcode', 'done'], ['repair', 'done']]);

    // Upgraded once: the next start queues nothing for it.
    await server.restart();
    admin = await adminSession(server.url);
    await new Promise((res) => setTimeout(res, 1000));
    const again = await server.sql.execute({ sql: 'SELECT count(*) AS n FROM jobs WHERE media_id = ?', args: [id] });
    expect(Number(again.rows[0]!.n)).toBe(2);
  });
});
