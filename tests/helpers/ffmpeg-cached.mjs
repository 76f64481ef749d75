#!/usr/bin/env node
// ffmpeg for test servers (issue 52): the same conversion twice makes the same bytes, so the
// second time the bytes come from a cache. Most test files upload the same few fixture clips and
// wait for their renditions; without this each of them pays for ffmpeg again. The product is not
// changed: the server runs this file as its FFMPEG_PATH (tests/helpers/server.ts) and does all
// of its own work (probing, frame checks, playlists, storage) on the files it gets.
//
// The key is ffmpeg's identity, the arguments with every file replaced by what decides it (an
// input's content hash, an output's position and extension). Anything this cannot account for
// runs ffmpeg for real: an output that is not a plain new file, a path in an argument that is
// not a readable file, `-version` and other calls without an input. Tests of the pipeline's own
// timing (cancel mid-run, kills, progress, priority) set FFMPEG_PATH=ffmpeg and get the real one.
//
// On a miss ffmpeg runs for real under setpriv --pdeathsig KILL: a server cancelling a job kills
// this process with SIGKILL, and ffmpeg must not outlive it. Outputs are stored only after exit 0,
// written beside the cache and renamed into place, so concurrent runs never see half an entry.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIR = process.env.FFMPEG_CACHE_DIR || path.join(ROOT, 'node_modules/.cache/studio-ffmpeg-outputs');
const REAL = process.env.FFMPEG_REAL || 'ffmpeg';
const args = process.argv.slice(2);

function realFfmpegPath() {
  if (REAL.includes('/')) return REAL;
  for (const d of (process.env.PATH ?? '').split(':')) {
    const p = path.join(d || '.', REAL);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {}
  }
  return null;
}

const fileHash = (p) => createHash('sha256').update(fs.readFileSync(p)).digest('hex');
const isFile = (p) => {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
};
const isDir = (p) => {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** The key and output paths, or null: this call is run for real and not cached. */
function plan(real) {
  if (!args.includes('-i')) return null;
  const outputs = [];
  const parts = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const last = i === args.length - 1;
    if (args[i - 1] === '-i') {
      if (isFile(a)) parts.push(`in:${fileHash(a)}`);
      else if (a.includes('/')) return null;
      else parts.push(a);
    } else if (a.startsWith('/')) {
      if ((last || !fs.existsSync(a)) && isDir(path.dirname(a)) && !outputs.includes(a)) {
        parts.push(`out:${outputs.length}${path.extname(a)}`);
        outputs.push(a);
      } else return null;
    } else {
      // A file named inside an argument (a filter's subtitles file): its content counts.
      let text = a;
      for (const m of a.match(/\/(?:[^/\s:,'"\\=]+\/)+[^/\s:,'"\\=]+/g) ?? []) {
        if (!isFile(m)) return null;
        text = text.replace(m, `in:${fileHash(m)}`);
      }
      parts.push(text);
    }
  }
  if (outputs.length === 0 || args.at(-1) !== outputs.at(-1)) return null;
  const st = fs.statSync(real);
  const key = createHash('sha256').update(JSON.stringify([real, st.size, st.mtimeMs, parts])).digest('hex').slice(0, 40);
  return { key, outputs };
}

function progressEnd() {
  const i = args.indexOf('-progress');
  if (i >= 0 && args[i + 1] === 'pipe:1') process.stdout.write('progress=end\n');
}

function log(what) {
  if (process.env.FFMPEG_CACHE_LOG) fs.appendFileSync(process.env.FFMPEG_CACHE_LOG, `${what}\n`);
}

const real = realFfmpegPath();
const p = real ? plan(real) : null;
const entry = p && path.join(DIR, p.key);

if (p && fs.existsSync(path.join(entry, 'outputs.json'))) {
  const kept = JSON.parse(fs.readFileSync(path.join(entry, 'outputs.json'), 'utf8'));
  for (const [i, out] of p.outputs.entries()) if (kept.includes(i)) fs.copyFileSync(path.join(entry, String(i)), out);
  log(`hit ${p.key}`);
  progressEnd();
  process.exit(0);
}

const child = spawn('setpriv', ['--pdeathsig', 'KILL', '--', real ?? REAL, ...args], { stdio: 'inherit' });
child.on('error', (e) => {
  process.stderr.write(`ffmpeg could not be started: ${e.message}\n`);
  process.exit(127);
});
child.on('close', (code, signal) => {
  if (signal) {
    process.kill(process.pid, signal);
    return;
  }
  if (code === 0 && p) {
    const part = `${entry}.${process.pid}.part`;
    try {
      fs.mkdirSync(part, { recursive: true });
      const kept = [];
      for (const [i, out] of p.outputs.entries()) {
        if (!isFile(out)) continue;
        fs.copyFileSync(out, path.join(part, String(i)));
        kept.push(i);
      }
      fs.writeFileSync(path.join(part, 'outputs.json'), JSON.stringify(kept));
      fs.renameSync(part, entry);
      log(`miss ${p.key}`);
    } catch {
      // Another run stored the same entry first (or the disk is full): theirs is as good.
      fs.rmSync(part, { recursive: true, force: true });
    }
  } else log(`real ${code} ${args.join(' ').slice(0, 200)}`);
  process.exit(code ?? 1);
});
