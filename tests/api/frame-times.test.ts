// Exact pictures (issue 39): every picture the app makes keeps the original's frame times. Each
// source kind studios send is uploaded to the real server; every rendition of the ladder, every
// HLS variant (its init section and byte ranges fetched as a player does), a watermarked link
// preview, a client's watermarked copy and a second version are read back with ffprobe and with
// the number each frame carries in its picture (tests/helpers/frame-fixture.ts): frame k must be
// the source's frame k, shown at k/fps within 1 ms, the first at 0.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startServer, storedLocalPath, type TestServer } from '../helpers/server.ts';
import { clientSession, Session, staffSession } from '../helpers/http.ts';
import { createClientWithLogin } from '../helpers/accounts.ts';
import { upload } from '../helpers/media-uploads.ts';
import { createUpload, patchUpload } from '../helpers/tus.ts';
import { parseMaster, parseMedia } from '../helpers/hls.ts';
import { until } from '../helpers/until.ts';
import { firstAudioTime, frameNumbers, frameSource, frameTimes, specName, type FrameSourceSpec } from '../helpers/frame-fixture.ts';

let server: TestServer;
let admin: Session;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'frame-times-'));

beforeAll(async () => {
  server = await startServer({ env: { JOB_POLL_MS: '200' } });
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const STEREO_48 = { codec: 'pcm', sampleRate: 48000 } as const;

/** The kinds of source the issue lists: codecs, sound, B-frames, a start timecode, five rates. */
const SOURCES: FrameSourceSpec[] = [
  { rate: '25', seconds: 2, video: 'prores', audio: STEREO_48, container: 'mov' },
  { rate: '30000/1001', seconds: 2, video: 'h264', audio: { codec: 'aac', sampleRate: 44100 }, container: 'mp4' },
  { rate: '24000/1001', seconds: 2, video: 'h264-bframes', audio: { codec: 'aac', sampleRate: 48000 }, container: 'mp4', timecode: '01:00:00:00' },
  { rate: '60000/1001', seconds: 2, video: 'hevc', audio: { codec: 'aac', sampleRate: 44100 }, container: 'mp4' },
  { rate: '50', seconds: 2, video: 'vp9', audio: { codec: 'opus', sampleRate: 48000 }, container: 'webm' },
  { rate: '25', seconds: 2, video: 'mpeg4', audio: { codec: 'pcm', sampleRate: 44100 }, container: 'avi' },
  { rate: '30000/1001', seconds: 2, video: 'prores', audio: null, container: 'mov', timecode: '00:59:58;00' },
  { rate: '25', seconds: 2, video: 'prores', audio: STEREO_48, container: 'mov', audioLate: 0.5 },
  // A recording whose sound started first (OBS's MKV): Matroska keeps the picture's later start.
  // 50 fps, so the picture's start, 0.5 s, is a whole number of frames.
  { rate: '50', seconds: 2, video: 'h264', audio: { codec: 'pcm', sampleRate: 48000 }, container: 'mkv', audioEarly: 0.5 },
  // 3840x2160: every rung of the ladder, 2160p to 360p.
  { rate: '25', seconds: 1, video: 'prores', audio: STEREO_48, container: 'mov', size: '3840x2160' },
];

const VARIABLE: FrameSourceSpec = { rate: '30000/1001', seconds: 2, video: 'h264', audio: { codec: 'aac', sampleRate: 48000 }, container: 'mp4', variable: true };

const rateOf = (text: string) => text.split('/').map(Number).reduce((n, d) => n / d);

/** Uploads a source and waits until every job of the item is done (a remux's smaller rungs follow). */
async function converted(spec: FrameSourceSpec) {
  const file = frameSource(spec);
  const up = await upload(admin, { title: specName(spec) }, { data: fs.readFileSync(file), name: path.basename(file) });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  return { id: up.body.id as number, file, ...(await settled(up.body.id)) };
}

async function settled(id: number) {
  await until(`item ${id} converted`, async () => {
    const live = (await admin.json('GET', `/api/media/${id}/processing`)).body;
    if (live.processingStatus === 'failed') throw new Error(`conversion failed: ${live.processingError}\n${server.output().slice(-3000)}`);
    const open = await server.sql.execute({ sql: "SELECT count(*) AS n FROM jobs WHERE media_id = ? AND status IN ('queued', 'running')", args: [id] });
    return live.processingStatus === 'ready' && Number(open.rows[0]!.n) === 0;
  }, 240_000);
  const live = (await admin.json('GET', `/api/media/${id}/processing`)).body;
  const versions = (await admin.json('GET', `/api/media/${id}/versions`)).body as any[];
  return { live, versions };
}

function localOf(url: string): Promise<string> {
  const [, key, variant] = /\/media\/([a-f0-9]{32})\/([^?]+)/.exec(url)!;
  return storedLocalPath(server, key!, variant!);
}

/**
 * Frame k of `file` is the source's frame k (the number in its picture) at k/fps within 1 ms,
 * and it has as many frames as the source. Answers the frame count for the message.
 */
function expectExactFrames(file: string, fps: number, sourceFrames: number, what: string) {
  const times = frameTimes(file);
  const numbers = frameNumbers(file);
  expect(numbers.length, `${what}: decoded frames`).toBe(times.length);
  expect(times.length, `${what}: frame count`).toBe(sourceFrames);
  const off = times.map((t, k) => ({ k, t, number: numbers[k], late: Math.round((t - k / fps) * 1e6) / 1000 })).filter((f) => f.number !== f.k || Math.abs(f.late) > 1);
  // The first frames that are off, with how late (ms) and which picture they show.
  expect(off.slice(0, 5), `${what}: frames not at k/fps or not showing frame k`).toEqual([]);
}

/** A streamed variant as a player gets it: the init section, then every byte range in order. */
async function assembledVariant(s: Session, masterUrl: string, entryUri: string, name: string): Promise<string> {
  const base = new URL(masterUrl, server.url);
  const listUrl = new URL(entryUri, base);
  const list = parseMedia(await (await s.get(listUrl.pathname + listUrl.search)).text());
  const parts: Buffer[] = [];
  for (const range of [list.map, ...list.segments]) {
    const at = new URL(range.uri, listUrl);
    const res = await s.request('GET', at.pathname + at.search, undefined, { Range: `bytes=${range.offset}-${range.offset + range.length - 1}` });
    expect(res.status).toBe(206);
    parts.push(Buffer.from(await res.arrayBuffer()));
  }
  const out = path.join(scratch, name);
  fs.writeFileSync(out, Buffer.concat(parts));
  return out;
}

const made = new Map<FrameSourceSpec, Awaited<ReturnType<typeof converted>>>();

describe.each(SOURCES.map((spec) => [specName(spec), spec] as const))('%s', (name, spec) => {
  let item: Awaited<ReturnType<typeof converted>>;
  const fps = rateOf(spec.rate);
  let sourceFrames: number;
  beforeAll(async () => {
    item = await converted(spec);
    made.set(spec, item);
    sourceFrames = frameTimes(item.file).length;
  }, 300_000);

  test('the version counts frames at the source rate', () => {
    expect(item.versions[0].frameRate).toBeCloseTo(fps, 6);
  });

  test('every rendition of the ladder shows frame k at k/fps, the first at 0', async () => {
    expect(item.live.renditions.length).toBeGreaterThan(0);
    for (const r of item.live.renditions) expectExactFrames(await localOf(r.url), fps, sourceFrames, `${name} ${r.label}`);
  });

  test('every HLS variant, fetched by its byte ranges, does the same', async () => {
    if (!item.live.streamUrl) return expect(spec.video).toBe('h264-bframes'); // a copy with B-frames plays as one file only
    const master = parseMaster(await (await admin.get(item.live.streamUrl)).text());
    expect(master.length).toBeGreaterThan(0);
    for (const [i, entry] of master.entries()) {
      const file = await assembledVariant(admin, item.live.streamUrl, entry.uri, `${item.id}-hls-${i}.mp4`);
      expectExactFrames(file, fps, sourceFrames, `${name} HLS ${entry.resolution.join('x')}`);
    }
  });

  test('the sound starts at 0 with the picture, never before it', async () => {
    for (const r of item.live.renditions) {
      const first = firstAudioTime(await localOf(r.url));
      if (!spec.audio) expect(first).toBeNull();
      else expect(first).toBe(0);
    }
  });
});

test('4K: the ladder has every rung from 2160p to 360p', () => {
  const item = made.get(SOURCES.find((s) => s.size === '3840x2160')!)!;
  expect(item.live.renditions.map((r: any) => r.label)).toEqual(['2160p', '1080p', '720p', '360p']);
});

// A sound that starts after the picture, and one that starts before it (the picture's start
// offset then moves the sound back): either way the tone is heard half a second in, as in the source.
test.each(SOURCES.filter((s) => s.audioLate || s.audioEarly).map((s) => [specName(s), s] as const))('the sound keeps its place against the picture, its tone heard half a second in: %s', async (_name, spec) => {
  const item = made.get(spec) ?? (await converted(spec));
  for (const r of item.live.renditions) {
    const pcm = execFileSync('ffmpeg', ['-v', 'error', '-i', await localOf(r.url), '-map', '0:a:0', '-ac', '1', '-ar', '48000', '-f', 's16le', '-'], { maxBuffer: 32 * 1024 * 1024 });
    const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length / 2);
    const onset = samples.findIndex((v) => Math.abs(v) > 1000);
    // The tone's first loud sample: a sine from phase 0 passes 1000/32767 within 0.5 ms.
    expect(onset / 48000, r.label).toBeGreaterThanOrEqual(0.5);
    expect(onset / 48000, r.label).toBeLessThan(0.5 + 0.002);
  }
}, 300_000);

test('variable frame rate: frames are counted at the nearest standard rate and every rendition is made constant at it', async () => {
  const item = await converted(VARIABLE);
  const rate = item.versions[0].frameRate as number;
  // The source's average is 29.97 give or take its uneven gaps: counted at 29.97 or 30.
  expect([30000 / 1001, 30].some((r) => Math.abs(r - rate) < 1e-6), String(rate)).toBe(true);
  const sourceTimes = frameTimes(item.file);
  // Uneven source times really were uneven (else this tests nothing).
  const gaps = sourceTimes.slice(1).map((t, i) => t - sourceTimes[i]!);
  expect(Math.max(...gaps) - Math.min(...gaps)).toBeGreaterThan(0.3 / rate);
  for (const r of item.live.renditions) {
    const file = await localOf(r.url);
    const times = frameTimes(file);
    const numbers = frameNumbers(file);
    // Constant: frame k at k/rate. Each source frame lies within half a frame of its slot, so
    // frame k of the rendition is the source's frame k.
    expect(times.map((t, k) => Math.abs(t - k / rate) <= 0.001).every(Boolean)).toBe(true);
    expect(numbers.slice(0, sourceTimes.length - 1)).toEqual(numbers.slice(0, sourceTimes.length - 1).map((_, k) => k));
  }
});

describe('copies made from the renditions', () => {
  const spec = SOURCES[0]!;
  const fps = rateOf(spec.rate);

  test('a watermarked link preview keeps the frame times', async () => {
    const item = made.get(spec)!;
    const link = await admin.json('POST', '/api/share-links', { name: 'Frame check', mediaIds: [item.id], watermark: true, download: 'preview' });
    expect(link.status).toBe(201);
    const token = new URL(link.body.url).pathname.split('/').pop()!;
    const visitor = new Session(server.url);
    expect((await visitor.get(`/s/${token}`)).status).toBe(200);
    const view = await until('the link preview', async () => {
      const r = (await visitor.json('GET', `/api/share/${token}`)).body;
      return r.items.every((i: any) => !i.previewPending) ? r : null;
    }, 120_000);
    const res = await visitor.get(view.items[0].playbackUrl);
    expect(res.status).toBe(200);
    const file = path.join(scratch, 'link-preview.mp4');
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    expectExactFrames(file, fps, frameTimes(item.file).length, 'link preview');
  }, 150_000);

  test("a client's watermarked copy keeps the frame times", async () => {
    const item = made.get(spec)!;
    const c = await createClientWithLogin(server, { name: 'Frame Client' });
    expect((await admin.json('POST', `/api/media/${item.id}/clients/${c.clientId}`)).status).toBe(201);
    expect((await admin.json('PUT', `/api/clients/${c.clientId}/watermark`, { watermark: true })).status).toBe(200);
    const client = await clientSession(server.url, c.username, c.password);
    const shown = await until('the client copy', async () => {
      const m = (await client.json('GET', '/api/client/media')).body.find((x: any) => x.id === item.id);
      return m && !m.previewPending && /\/lp-/.test(m.playbackUrl ?? '') ? m : null;
    }, 120_000);
    const res = await client.get(shown.playbackUrl);
    expect(res.status).toBe(200);
    const file = path.join(scratch, 'client-copy.mp4');
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    expectExactFrames(file, fps, frameTimes(item.file).length, 'client copy');
  }, 150_000);

  test('a second version is exact too', async () => {
    const item = made.get(spec)!;
    const next: FrameSourceSpec = { rate: '50', seconds: 2, video: 'h264', audio: { codec: 'aac', sampleRate: 48000 }, container: 'mp4' };
    const data = fs.readFileSync(frameSource(next));
    const { res, id } = await createUpload(admin, data.length, { filename: 'cut-2.mp4' });
    expect(res.status).toBe(201);
    expect((await patchUpload(admin, id!, 0, data)).status).toBe(204);
    expect((await admin.json('POST', `/api/media/${item.id}/versions`, { uploadId: id })).status).toBe(201);
    const { live, versions } = await settled(item.id);
    expect(versions.length).toBe(2);
    for (const r of live.renditions) expectExactFrames(await localOf(r.url), 50, frameTimes(frameSource(next)).length, `version 2 ${r.label}`);
  }, 300_000);
});
