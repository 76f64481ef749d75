// The test servers' ffmpeg (tests/helpers/ffmpeg-cached.mjs, issue 52) must give exactly what
// ffmpeg gives, or every test using it proves less than it says: a second identical run is
// served from the cache with the same bytes; anything that decides the bytes (an input's
// content, a file named inside an argument, the arguments) makes a new entry; what it cannot
// account for runs for real; a killed wrapper takes its ffmpeg with it; a failure stores nothing.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CACHED_FFMPEG } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';
import { ffmpegProcessesFor } from '../helpers/video-sources.ts';

let dir: string;
let log: string;
let input: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ffmpeg-cached-'));
  log = path.join(dir, 'log');
  input = path.join(dir, 'in.mp4');
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=64x36:rate=25', '-t', '1', '-pix_fmt', 'yuv420p', input]);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const env = () => ({ ...process.env, FFMPEG_CACHE_DIR: path.join(dir, 'cache'), FFMPEG_CACHE_LOG: log });

function cached(args: string[]) {
  const r = spawnSync(CACHED_FFMPEG, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-progress', 'pipe:1', ...args], { env: env(), encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, last: fs.readFileSync(log, 'utf8').trim().split('\n').at(-1)!.split(' ')[0] };
}

function ffmpeg(args: string[]) {
  const r = spawnSync('ffmpeg', ['-v', 'error', '-y', ...args]);
  expect(r.status, r.stderr?.toString()).toBe(0);
}

const out = (name: string) => path.join(dir, name);
const encode = (from: string, to: string, extra: string[] = []) => ['-i', from, ...extra, '-c:v', 'libx264', '-preset', 'ultrafast', to];

test('the same conversion again is served from the cache, byte for byte, and says progress=end', () => {
  const first = cached(encode(input, out('a.mp4')));
  expect([first.status, first.last]).toEqual([0, 'miss']);
  const second = cached(encode(input, out('b.mp4')));
  expect([second.status, second.last]).toEqual([0, 'hit']);
  expect(second.stdout).toContain('progress=end');
  expect(fs.readFileSync(out('b.mp4')).equals(fs.readFileSync(out('a.mp4')))).toBe(true);
});

test.each([
  ['other arguments', () => encode(input, out('c.mp4'), ['-vf', 'hflip'])],
  ['another output type', () => encode(input, out('c.mkv'))],
  [
    'an input with other content under the same name',
    () => {
      const other = out('same-name.mp4');
      ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=64x36:rate=25', '-t', '1', '-pix_fmt', 'yuv420p', other]);
      cached(encode(other, out('d.mp4')));
      ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=64x36:rate=25', '-t', '1', '-pix_fmt', 'yuv420p', other]);
      return encode(other, out('e.mp4'));
    },
  ],
  [
    'a file named inside a filter, changed',
    () => {
      const sub = out('cues.srt');
      fs.writeFileSync(sub, '1\n00:00:00,000 --> 00:00:01,000\nOne\n');
      cached(encode(input, out('f.mp4'), ['-vf', `subtitles=${sub}`]));
      fs.writeFileSync(sub, '1\n00:00:00,000 --> 00:00:01,000\nTwo\n');
      return encode(input, out('g.mp4'), ['-vf', `subtitles=${sub}`]);
    },
  ],
])('%s: a new entry, made by ffmpeg', (_what, args) => {
  expect(cached(args()).last).toBe('miss');
});

test.each([
  ['an output to stdout', () => ['-i', input, '-frames:v', '1', '-f', 'null', '-']],
  ['a path inside an argument that is no file', () => encode(input, out('h.mp4'), ['-vf', `subtitles=${out('nowhere/cues.srt')}`])],
  ['an existing file that is not the last output', () => ['-i', input, '-c', 'copy', input, '-c', 'copy', out('i.mp4')]],
])('%s: run for real, nothing stored', (_what, args) => {
  expect(cached(args()).last).toBe('real');
});

test('a failed conversion stores nothing: the same call fails again', () => {
  const bad = out('not-video.mp4');
  fs.writeFileSync(bad, 'not a video');
  expect(cached(encode(bad, out('j.mp4'))).status).not.toBe(0);
  const again = cached(encode(bad, out('k.mp4')));
  expect([again.status === 0, again.last]).toEqual([false, 'real']);
});

test('a wrapper killed with SIGKILL (a cancelled job) takes its ffmpeg with it', async () => {
  const marker = `killed-${process.pid}`;
  const child = spawn(CACHED_FFMPEG, ['-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25', '-t', '600', '-c:v', 'libx264', out(`${marker}.mp4`)], { env: env(), stdio: 'ignore' });
  try {
    await until('ffmpeg running', async () => ffmpegProcessesFor(marker).length > 0, 30_000);
    child.kill('SIGKILL');
    await until('ffmpeg gone', async () => ffmpegProcessesFor(marker).every((pid) => !fs.existsSync(`/proc/${pid}/cmdline`) || fs.readFileSync(`/proc/${pid}/cmdline`).length === 0), 30_000);
  } finally {
    for (const pid of ffmpegProcessesFor(marker)) process.kill(pid, 'SIGKILL');
  }
});
