// Media fixtures made once per machine, not once per test file (issue 52). Every test file runs
// in a process of its own, so a generator that kept its output in memory made the same clip again
// in each file and each project. ffmpeg's output is kept in node_modules/.cache/studio-fixtures
// (beside the sqld binary's cache; a fresh clone starts without it) under a hash of the
// arguments and ffmpeg's version: the same arguments give the same file to every file of the
// run, and to later runs. The files are shared: read them, copy them, never change them.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIR = path.join(ROOT, 'node_modules/.cache/studio-fixtures');

let ffmpegVersion: string | undefined;

/** The file ffmpeg writes for `args` (everything but `-y` and the output file) as a `.ext` file. */
export function ffmpegFixture(args: string[], ext: string): string {
  ffmpegVersion ??= execFileSync('ffmpeg', ['-version'], { encoding: 'utf8' }).split('\n')[0]!;
  return cachedFile(JSON.stringify([ffmpegVersion, args]), ext, (out) => {
    execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, out], { stdio: ['ignore', 'ignore', 'pipe'] });
  });
}

/**
 * The file `make(out)` writes, kept under `key` (anything that decides its bytes). Made at most
 * once per machine; two processes making it at once each write their own and rename it into
 * place, so a reader never sees half a file.
 */
export function cachedFile(key: string, ext: string, make: (out: string) => void): string {
  const name = `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.${ext}`;
  const file = path.join(DIR, name);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(DIR, { recursive: true });
  const partial = path.join(DIR, `${process.pid}-${name}.part.${ext}`);
  try {
    make(partial);
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return file;
}
