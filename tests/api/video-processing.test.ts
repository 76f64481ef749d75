// Every accepted video plays everywhere: probe at upload (415 for no picture), review proxies
// made by the worker through the durable job queue, the playback fields on every list,
// reprocess, visibility of renditions and sprites. Real ffmpeg, sources made at test time.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import sharp from 'sharp';
import { readStored, startServer, storedLocalPath, type TestServer } from '../helpers/server.ts';
import { clientSession, Session } from '../helpers/http.ts';
import { adminSession, createClientWithLogin, matrixFromDb } from '../helpers/accounts.ts';
import { folderFiles, mediaFolders, upload, uploadImage } from '../helpers/media-uploads.ts';
import { waitSettled } from '../helpers/processing.ts';
import { ftypPolyglot, probeOutput, source, type SourceName } from '../helpers/video-sources.ts';

let server: TestServer;
let admin: Session;

beforeAll(async () => {
  server = await startServer({ env: { JOB_POLL_MS: '200' } });
  admin = await adminSession(server.url);
});
afterAll(() => server?.stop());

async function uploadFile(file: string, fields: Record<string, string> = {}) {
  return upload(admin, { title: path.basename(file), ...fields }, { data: fs.readFileSync(file), name: path.basename(file) });
}

function stored(url: string): [string, string] {
  const [, key, variant] = /\/media\/([a-f0-9]{32})\/([^?]+)/.exec(url)!;
  return [key!, variant!];
}

async function jobOf(mediaId: number) {
  const r = await server.sql.execute({ sql: 'SELECT * FROM jobs WHERE media_id = ?', args: [mediaId] });
  return r.rows;
}

interface Expectation {
  path: 'remux' | 'transcode';
  sizes: [string, number, number][];
  audio: boolean;
  /** The original plays in a browser, so it is the playbackUrl until the proxy is ready. */
  originalPlayable: boolean;
}

const MATRIX: [SourceName, Expectation][] = [
  ['ProRes 422 HQ MOV with PCM audio', { path: 'transcode', sizes: [['180p', 320, 180]], audio: true, originalPlayable: false }],
  ['HEVC 10-bit MP4 with AAC', { path: 'transcode', sizes: [['180p', 320, 180]], audio: true, originalPlayable: false }],
  ['MPEG-4 Part 2 AVI with PCM audio', { path: 'transcode', sizes: [['180p', 320, 180]], audio: true, originalPlayable: false }],
  ['H.264 MKV without audio', { path: 'transcode', sizes: [['180p', 320, 180]], audio: false, originalPlayable: false }],
  ['Portrait MP4 with rotation metadata', { path: 'transcode', sizes: [['180p', 180, 320]], audio: true, originalPlayable: true }],
  ['HDR PQ HEVC', { path: 'transcode', sizes: [['180p', 320, 180]], audio: false, originalPlayable: false }],
  ['H.264/AAC MP4 (remux)', { path: 'remux', sizes: [['180p', 320, 180]], audio: true, originalPlayable: true }],
  ['H.264/AAC MP4, keyframe every 0.5 s (remux)', { path: 'remux', sizes: [['180p', 320, 180]], audio: true, originalPlayable: true }],
  ['H.264 1080p MKV (three sizes)', { path: 'transcode', sizes: [['1080p', 1920, 1080], ['720p', 1280, 720], ['360p', 640, 360]], audio: false, originalPlayable: false }],
];

describe('each source becomes playable review proxies', () => {
  test.each(MATRIX)('%s', { timeout: 150_000 }, async (name, want) => {
    const up = await uploadFile(source(name));
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    // Answered before any conversion: queued, or already claimed by the worker (on a database
    // server the answer is read a round trip after the job was written).
    expect(['queued', 'processing']).toContain(up.body.processingStatus);
    // Before the proxy exists: the original only when a browser can play it.
    expect(up.body.playbackUrl).toBe(want.originalPlayable ? up.body.url : null);

    const live = await waitSettled(admin, up.body.id);
    expect(live.processingStatus, live.processingError ?? '').toBe('ready');
    expect(live.processingProgress).toBe(100);
    expect(live.renditions.map((r: any) => [r.label, r.width, r.height])).toEqual(want.sizes);
    expect(live.playbackUrl).toBe(live.renditions[0].url);

    const jobs = await jobOf(up.body.id);
    expect(jobs.map((j) => [j.status, j.path, Number(j.attempts)])).toEqual([['done', want.path, 1]]);

    for (const r of live.renditions) {
      const res = await admin.get(r.url, { Range: 'bytes=0-99' });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      const out = probeOutput(await storedLocalPath(server, ...stored(r.url)));
      expect([out.videoCodec, out.pixFmt, out.width, out.height, out.rotation]).toEqual(['h264', 'yuv420p', r.width, r.height, 0]);
      expect(out.faststart).toBe(true);
      expect(out.hasAudio).toBe(want.audio);
      if (want.path === 'transcode') {
        expect(out.profile).toBe('High');
        if (want.audio) expect([out.audioCodec, out.audioRate, out.audioChannels]).toEqual(['aac', 48000, 2]);
        // A keyframe every 2 s.
        expect(out.keyframes[0]).toBeCloseTo(0, 1);
        for (let i = 1; i < out.keyframes.length; i++) expect(out.keyframes[i]! - out.keyframes[i - 1]!).toBeLessThanOrEqual(2.05);
        expect(out.colorTransfer === 'smpte2084' || out.colorTransfer === 'arib-std-b67').toBe(false);
      } else {
        // Streams copied, not re-encoded: the source's own profile survives.
        expect(out.profile).toBe('Constrained Baseline');
      }
      expect(Math.abs(out.durationSeconds - (name.includes('1080p') ? 1 : 2))).toBeLessThan(0.2);
    }

    // The seek-bar sprite and its WebVTT time map.
    expect(live.spriteUrl).toMatch(/\/sprite\.vtt\?v=\d+$/);
    const vtt = await admin.get(live.spriteUrl);
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toMatch(/^text\/vtt/);
    const text = await vtt.text();
    expect(text.startsWith('WEBVTT')).toBe(true);
    const tiles = [...text.matchAll(/sprite\.jpg\?v=\d+#xywh=(\d+),(\d+),(\d+),(\d+)/g)];
    expect(tiles.length).toBeGreaterThanOrEqual(1);
    const img = await admin.get(new URL(tiles[0]![0].split('#')[0]!, server.url + live.spriteUrl).pathname);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    // The image holds the whole grid the map points into.
    const meta = await sharp(Buffer.from(await img.arrayBuffer())).metadata();
    const extent = (a: number, b: number) => Math.max(...tiles.map((t) => Number(t[a]) + Number(t[b])));
    expect([meta.width, meta.height]).toEqual([extent(1, 3), extent(2, 4)]);

    // Nothing half-written left behind; the original is untouched.
    expect(folderFiles(server.mediaDir, up.body.url).filter((f) => f.startsWith('.'))).toEqual([]);
    expect((await readStored(server, ...stored(up.body.url)))!.equals(fs.readFileSync(source(name)))).toBe(true);
  });
});

describe('files with video magic bytes but no picture are refused', () => {
  test.each([
    ['a truncated MP4', () => fs.readFileSync(source('Truncated MP4')), 'cut.mp4'],
    ['an ftyp header with an HTML body', () => ftypPolyglot(), 'page.mp4'],
  ] as const)('%s: 415, no row, no file', async (_name, data, filename) => {
    const rows = Number((await server.sql.execute('SELECT count(*) AS n FROM media')).rows[0]!.n);
    const folders = mediaFolders(server.mediaDir).length;
    const r = await upload(admin, { title: 'Not a video' }, { data: data(), name: filename });
    expect(r.status).toBe(415);
    expect(r.body.message).toMatch(/no playable video stream/i);
    expect(Number((await server.sql.execute('SELECT count(*) AS n FROM media')).rows[0]!.n)).toBe(rows);
    expect(mediaFolders(server.mediaDir).length).toBe(folders);
  });
});

describe('the playback fields on every list, and visibility of renditions', () => {
  test('admin, portal and public lists; a private item’s proxies are 404 to the public and other clients', { timeout: 60_000 }, async () => {
    const alice = await createClientWithLogin(server);
    const bob = await createClientWithLogin(server);
    const priv = await uploadFile(source('H.264 MKV without audio'), { title: 'Private cut', clientId: String(alice.clientId) });
    const pub = await uploadFile(source('MPEG-4 Part 2 AVI with PCM audio'), { title: 'Showreel', isFeatured: 'true', showInPortfolio: 'true' });
    expect(priv.status).toBe(201);
    expect(pub.status).toBe(201);
    const ready = await waitSettled(admin, priv.body.id);
    await waitSettled(admin, pub.body.id);

    const fields = ['processingStatus', 'processingProgress', 'processingError', 'playbackUrl', 'renditions', 'spriteUrl'];
    const adminItem = (await admin.json('GET', '/api/media')).body.find((m: any) => m.id === priv.body.id);
    expect(adminItem).toMatchObject({ processingStatus: 'ready', processingProgress: 100, processingError: null, playbackUrl: ready.playbackUrl, renditions: ready.renditions, spriteUrl: ready.spriteUrl });

    const aliceS = await clientSession(server.url, alice.username, alice.password);
    const bobS = await clientSession(server.url, bob.username, bob.password);
    const portalItem = (await aliceS.json('GET', '/api/client/media')).body.find((m: any) => m.id === priv.body.id);
    for (const f of fields) expect(portalItem[f], f).toEqual(adminItem[f]);

    for (const list of ['/api/media/featured', '/api/media/portfolio']) {
      const item = (await new Session(server.url).json('GET', list)).body.find((m: any) => m.id === pub.body.id);
      expect(item, list).toMatchObject({ processingStatus: 'ready', processingError: null });
      expect(item.playbackUrl).toMatch(/\/720p\.mp4\?v=\d+$/);
      expect((await new Session(server.url).get(item.playbackUrl)).status).toBe(200);
    }

    const urls = [...ready.renditions.map((r: any) => r.url), ready.spriteUrl, ready.spriteUrl.replace('sprite.vtt', 'sprite.jpg')];
    for (const url of urls) {
      expect((await new Session(server.url).get(url)).status, `public ${url}`).toBe(404);
      expect((await bobS.get(url)).status, `other client ${url}`).toBe(404);
      expect((await aliceS.get(url)).status, `assigned client ${url}`).toBe(200);
      expect((await admin.get(url)).status, `staff ${url}`).toBe(200);
    }
    // The live state is the client's own too; other clients get 404.
    expect((await aliceS.json('GET', `/api/client/media/${priv.body.id}/processing`)).body.processingStatus).toBe('ready');
    expect((await bobS.json('GET', `/api/client/media/${priv.body.id}/processing`)).status).toBe(404);
  });

  test('progress ticks leave the cached admin list alone; a status change invalidates it', async () => {
    const version = async () => Number((await server.sql.execute('SELECT version FROM library_state WHERE id = 1')).rows[0]!.version);
    const [row] = (await server.sql.execute("SELECT id FROM media WHERE type = 'video' LIMIT 1")).rows;
    const id = Number(row!.id);
    const v0 = await version();
    await server.sql.execute({ sql: 'UPDATE media SET processing_progress = 42 WHERE id = ?', args: [id] });
    expect(await version()).toBe(v0);
    await server.sql.execute({ sql: "UPDATE media SET processing_status = 'processing', processing_progress = 43 WHERE id = ?", args: [id] });
    expect(await version()).toBe(v0 + 1);
    await server.sql.execute({ sql: "UPDATE media SET title = 'Renamed' WHERE id = ?", args: [id] });
    expect(await version()).toBe(v0 + 2);
    await server.sql.execute({ sql: "UPDATE media SET processing_status = 'ready', processing_progress = 100 WHERE id = ?", args: [id] });
  });
});

describe('POST /api/media/{id}/reprocess', () => {
  test('queues the video again; it becomes ready with new URLs', { timeout: 60_000 }, async () => {
    const up = await uploadFile(source('H.264/AAC MP4 (remux)'));
    const first = await waitSettled(admin, up.body.id);
    const r = await admin.json('POST', `/api/media/${up.body.id}/reprocess`);
    expect(r.status).toBe(202);
    // Queued again, or already claimed by the worker (on sqld the answer is read a round trip later).
    expect(['queued', 'processing']).toContain(r.body.processingStatus);
    const again = await waitSettled(admin, up.body.id);
    expect(again.processingStatus).toBe('ready');
    expect(again.playbackUrl).not.toBe(first.playbackUrl);
    expect((await admin.get(again.playbackUrl)).status).toBe(200);
    const jobs = await jobOf(up.body.id);
    expect(jobs.map((j) => j.status)).toEqual(['done']);
  });

  test('permissions: edit:media required; images 400; unknown 404', async () => {
    const up = await uploadFile(source('H.264 MKV without audio'));
    const { sessions } = await matrixFromDb(server, 'edit:media');
    const want = { anonymous: 401, client: 401, 'staff without it': 403, 'staff with it': 202, admin: 202 } as const;
    for (const [actor, status] of Object.entries(want)) {
      expect((await sessions[actor as keyof typeof want].json('POST', `/api/media/${up.body.id}/reprocess`)).status, actor).toBe(status);
    }
    expect((await admin.json('POST', '/api/media/999999/reprocess')).status).toBe(404);
    const img = await uploadImage(admin);
    expect((await admin.json('POST', `/api/media/${img.id}/reprocess`)).status).toBe(400);
    await waitSettled(admin, up.body.id);
  });
});
