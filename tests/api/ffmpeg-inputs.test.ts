// What ffmpeg and ffprobe are allowed to read, and the edge cases of odd inputs (issue 31,
// item 11): every run may open only local files and pipes, in the demuxer the sniffed type
// names (so a polyglot is not read as something else); a one-frame clip gets a sprite; a
// container claiming days of footage does not overflow the job timeout. Real ffmpeg; the
// runs are seen through FFMPEG_PATH / FFPROBE_PATH wrappers that log their arguments and
// then exec the real tools.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import type { Session } from '../helpers/http.ts';
import { adminSession } from '../helpers/accounts.ts';
import { mediaFolders, upload } from '../helpers/media-uploads.ts';
import { source } from '../helpers/video-sources.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ffmpeg-inputs-'));
const argLog = path.join(dir, 'runs.log');
let server: TestServer;
let admin: Session;

/** A wrapper that appends its argument list (one line, fields split by \x1f) and runs the real tool. */
function wrapper(tool: 'ffmpeg' | 'ffprobe'): string {
  const real = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
  const file = path.join(dir, tool);
  fs.writeFileSync(file, `#!/bin/sh\n{ printf '%s' '${tool}'; for a in "$@"; do printf '\\037%s' "$a"; done; printf '\\n'; } >> '${argLog}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
  return file;
}

beforeAll(async () => {
  server = await startServer({ env: { JOB_POLL_MS: '200', JOB_RETRY_BASE_MS: '0', FFMPEG_PATH: wrapper('ffmpeg'), FFPROBE_PATH: wrapper('ffprobe') } });
  admin = await adminSession(server.url);
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function gen(name: string, args: string[]): string {
  const file = path.join(dir, name);
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, file], { stdio: ['ignore', 'ignore', 'pipe'] });
  return file;
}

async function uploadBytes(data: Buffer, name: string) {
  return upload(admin, { title: name }, { data, name });
}

async function waitSettled(id: number, timeoutMs = 90_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await admin.json('GET', `/api/media/${id}/processing`);
    expect(r.status).toBe(200);
    if (r.body.processingStatus === 'ready' || r.body.processingStatus === 'failed') return r.body;
    if (Date.now() > end) throw new Error(`item ${id} still ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 150));
  }
}

/** Every logged run that reads an input: [tool, args]. */
function runsWithInput(): [string, string[]][] {
  if (!fs.existsSync(argLog)) return [];
  return fs
    .readFileSync(argLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\x1f'))
    .map(([tool, ...args]) => [tool!, args] as [string, string[]])
    .filter(([, args]) => args.includes('-i'));
}

describe('what ffmpeg and ffprobe may read', () => {
  test('every run reads its input as a local file in the sniffed format (-protocol_whitelist file,pipe, -f)', { timeout: 120_000 }, async () => {
    fs.rmSync(argLog, { force: true });
    const avi = await uploadBytes(fs.readFileSync(source('MPEG-4 Part 2 AVI with PCM audio')), 'clip.avi');
    expect(avi.status, JSON.stringify(avi.body)).toBe(201);
    const mp4 = await uploadBytes(fs.readFileSync(source('H.264/AAC MP4 (remux)')), 'clip.mp4');
    expect(mp4.status, JSON.stringify(mp4.body)).toBe(201);
    expect((await waitSettled(avi.body.id)).processingStatus).toBe('ready');
    expect((await waitSettled(mp4.body.id)).processingStatus).toBe('ready');

    const runs = runsWithInput();
    // ffprobe at upload and in the worker, the first-frame check, the poster frame, the conversion, the sprite.
    expect(runs.filter(([t]) => t === 'ffprobe').length).toBeGreaterThanOrEqual(4);
    expect(runs.filter(([t]) => t === 'ffmpeg').length).toBeGreaterThanOrEqual(6);
    const formats = new Set<string>();
    for (const [tool, args] of runs) {
      const i = args.indexOf('-i');
      const input = args[i + 1]!;
      const before = args.slice(0, i);
      const opt = (name: string) => (before.includes(name) ? before[before.indexOf(name) + 1] : undefined);
      expect(opt('-protocol_whitelist'), `${tool} ${args.join(' ')}`).toBe('file,pipe');
      expect(opt('-f'), `${tool} ${args.join(' ')}`).toBeTruthy();
      expect(input.startsWith('/'), input).toBe(true);
      formats.add(`${path.basename(input).replace(/^\.[^.]*?(\.\w+)$/, 'scratch$1')}:${opt('-f')}`);
    }
    // The originals in their own demuxers; the worker's own MP4s as MP4.
    expect(formats).toContain('original.avi:avi');
    expect(formats).toContain('original.mp4:mp4');
  });

  test('an EBML (Matroska) header over an MPEG-TS stream is refused, not read as MPEG-TS', async () => {
    const ts = gen('clip.ts', ['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10:duration=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-f', 'mpegts']);
    // Sniffed as Matroska (its first bytes), but ffmpeg's own probing would pick MPEG-TS.
    const polyglot = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]), fs.readFileSync(ts)]);
    const folders = mediaFolders(server.mediaDir).length;
    const r = await uploadBytes(polyglot, 'clip.mkv');
    expect(r.status, JSON.stringify(r.body)).toBe(415);
    expect(r.body.message).toMatch(/no playable video stream/i);
    expect(mediaFolders(server.mediaDir).length).toBe(folders);
  });
});

describe('odd but real inputs convert', () => {
  test('a one-frame AVI becomes ready, with a one-tile sprite', { timeout: 120_000 }, async () => {
    const avi = gen('one-frame.avi', ['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=24', '-frames:v', '1', '-c:v', 'mpeg4']);
    const up = await uploadBytes(fs.readFileSync(avi), 'one-frame.avi');
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const live = await waitSettled(up.body.id);
    expect(live.processingStatus, live.processingError ?? '').toBe('ready');
    expect(live.processingError).toBeNull();
    expect(live.renditions.length).toBe(1);
    expect((await admin.get(live.playbackUrl)).status).toBe(200);
    expect(live.spriteUrl).toMatch(/\/sprite\.vtt\?v=\d+$/);
    const vtt = await (await admin.get(live.spriteUrl)).text();
    const tiles = [...vtt.matchAll(/sprite\.jpg\?v=\d+#xywh=(\d+),(\d+),(\d+),(\d+)/g)];
    expect(tiles.length).toBe(1);
    const img = await admin.get(live.spriteUrl.replace('sprite.vtt', 'sprite.jpg'));
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
  });

  test('an MP4 claiming 30 hours (beyond a 32-bit millisecond timer) still converts', { timeout: 120_000 }, async () => {
    const mp4 = fs.readFileSync(source('H.264/AAC MP4 (remux)'));
    // mvhd version 0: version+flags, created, modified, timescale, duration (32-bit each).
    const at = mp4.indexOf('mvhd') + 4;
    expect(mp4[at]).toBe(0);
    const timescale = mp4.readUInt32BE(at + 12);
    mp4.writeUInt32BE(30 * 3600 * timescale, at + 16);
    const up = await uploadBytes(mp4, 'long-claim.mp4');
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body.durationSeconds).toBe(30 * 3600);
    const live = await waitSettled(up.body.id);
    expect(live.processingStatus, live.processingError ?? '').toBe('ready');
    const jobs = (await server.sql.execute({ sql: 'SELECT status, attempts FROM jobs WHERE media_id = ?', args: [up.body.id] })).rows;
    expect(jobs.map((j) => [j.status, Number(j.attempts)])).toEqual([['done', 1]]);
  });
});
