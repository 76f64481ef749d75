// The job timeout for any claimed duration, and what staff read when a conversion fails
// (issue 31, item 11): real errors from Node and ffmpeg, reduced to the reason and file name.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';

// A media folder with a space in its name, as an operator may well choose.
const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio media '));
process.env.MEDIA_DIR = mediaDir;
const { timeoutFor, MAX_TIMEOUT_MS } = await import('../../src/server/jobs/ffmpeg-run.ts');
const { withoutPaths } = await import('../../src/server/jobs/failure-text.ts');

test('the ffmpeg timeout is finite, positive and within what a Node timer can wait, whatever the claimed duration', () => {
  for (const seconds of [0, 1, 3600, 29.8 * 3600, 30 * 3600, 1e9, Number.MAX_VALUE, Infinity, NaN, -5, null]) {
    const ms = timeoutFor(seconds);
    expect(Number.isFinite(ms), String(seconds)).toBe(true);
    expect(ms, String(seconds)).toBeGreaterThanOrEqual(60_000);
    expect(ms, String(seconds)).toBeLessThanOrEqual(MAX_TIMEOUT_MS);
  }
  // More claimed footage never means less time.
  expect(timeoutFor(30 * 3600)).toBeGreaterThanOrEqual(timeoutFor(29 * 3600));
  expect(timeoutFor(10)).toBe(60_000 + 10 * 20 * 1000);
});

test('staff read the reason and the file name, not the server’s folders', async () => {
  const folder = path.join(mediaDir, 'ab'.repeat(16));
  fs.mkdirSync(folder);
  const rename = await fs.promises.rename(path.join(folder, '.tmp-1.job.jpg'), path.join(folder, 'sprite.jpg')).catch((e: Error) => e);
  let stderr = '';
  try {
    execFileSync('ffmpeg', ['-v', 'error', '-i', path.join(folder, 'original.avi'), '-f', 'null', '-'], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    stderr = String((e as { stderr: Buffer }).stderr).trim();
  }
  // The real errors name the whole path, space and all.
  expect((rename as Error).message).toContain(folder);
  expect(stderr).toContain(folder);
  const cases: [string, RegExp][] = [
    [(rename as Error).message, /^ENOENT: no such file or directory, rename '\.tmp-1\.job\.jpg' -> 'sprite\.jpg'$/],
    [stderr, /^original\.avi: No such file or directory$/],
    [`ffmpeg could not be started: spawn /usr/local/bin/ffmpeg ENOENT`, /^ffmpeg could not be started: spawn ffmpeg ENOENT$/],
  ];
  for (const [raw, want] of cases) {
    expect(raw).toContain('/');
    const shown = withoutPaths(raw);
    expect(shown, raw).toMatch(want);
    expect(shown).not.toContain('/');
  }
  fs.rmSync(mediaDir, { recursive: true, force: true });
});
