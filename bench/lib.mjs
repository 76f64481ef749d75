// Shared pieces of the benchmarks: the real server (the same launcher the tests use),
// autocannon runs, a bare node:http reference server, and the result line run.mjs collects.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

import { startServer } from '../tests/helpers/server.ts';
import { startSqld } from '../tests/helpers/sqld.ts';

export { startServer };
export { ADMIN, DEMO_CLIENT, OUT_DIR, ROOT } from '../tests/helpers/server.ts';

/**
 * The same app twice, with no worker: on an embedded file ('file') and on a sqld of its own
 * over loopback ('sqld'), for benchmarks whose budgets hold on both. `stop` ends both and sqld.
 */
export async function fileAndSqldSides(label) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${label}-`));
  const sqldProcess = await startSqld({ dir: path.join(work, 'sqld') });
  const sides = [
    { name: 'file', server: await startServer({ env: { WORKER: 'off' } }) },
    { name: 'sqld', server: await startServer({ databaseUrl: sqldProcess.url, env: { WORKER: 'off' } }) },
  ];
  return {
    sides,
    async stop() {
      for (const side of sides) await side.server.stop();
      await sqldProcess.stop();
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}

/** Signs in (staff: /api/login, client: /api/client/login) and returns the Cookie header value. */
export async function signIn(base, kind, username, password) {
  const res = await fetch(`${base}${kind === 'client' ? '/api/client/login' : '/api/login'}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`${kind} sign-in failed: ${res.status} ${await res.text()}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

/** Benchmark settings; BENCH_DURATION shortens runs for a smoke test (seconds). */
export const DURATION = Number(process.env.BENCH_DURATION || 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);

/** Runs autocannon and returns the figures we report. */
export async function cannon(opts) {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });
  return {
    rps: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p95: percentile(result, 95),
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytes: result.throughput.total,
  };
}

// autocannon reports p90 and p97.5, not p95: take the exact figure from a sampled run when
// asked for it via cannonLatencies(); otherwise interpolate between its two neighbours.
function percentile(result, p) {
  if (p !== 95) return undefined;
  const { p90, p97_5 } = result.latency;
  return p90 + ((p97_5 - p90) * (95 - 90)) / (97.5 - 90);
}

/**
 * Sequential-ish latency sampling for endpoints too slow for a meaningful autocannon run:
 * `concurrency` workers issue `count` requests in total; exact percentiles from the samples.
 */
export async function sampleLatency(fn, { count = 100, concurrency = 4 } = {}) {
  const times = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        const t = performance.now();
        const ok = await fn();
        times.push(performance.now() - t);
        if (!ok) failures++;
      }
    }),
  );
  const total = performance.now() - started;
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.ceil((q / 100) * times.length) - 1)];
  return { count, failures, rps: (count / total) * 1000, p50: at(50), p95: at(95), p99: at(99), max: times.at(-1) };
}

/**
 * A bare node:http server in its own process answering every request with the given bytes
 * and headers: the reference for "how fast could these bytes be served on this machine".
 */
export async function startBareServer(body, headers) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bare-'));
  const file = path.join(dir, 'body.bin');
  fs.writeFileSync(file, body);
  const script = `
    const http = require('node:http');
    const body = require('node:fs').readFileSync(${JSON.stringify(file)});
    const headers = ${JSON.stringify(headers)};
    headers['content-length'] = body.length;
    const server = http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); });
    server.keepAliveTimeout = 5000;
    server.listen(0, '127.0.0.1', () => console.log('BARE_LISTENING ' + server.address().port));
  `;
  return spawnBareServer(script, () => fs.rmSync(dir, { recursive: true, force: true }));
}

/**
 * Runs `script` (CommonJS that listens on 127.0.0.1 and prints `BARE_LISTENING <port>`) as a
 * reference server in its own Node process; `cleanup` runs when it is stopped.
 */
export async function spawnBareServer(script, cleanup = () => {}) {
  const proc = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (c) => {
      out += c;
      const m = out.match(/BARE_LISTENING (\d+)/);
      if (m) resolve(Number(m[1]));
    });
    proc.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        proc.removeAllListeners('exit');
        proc.once('exit', resolve);
        proc.kill('SIGTERM');
        cleanup();
      }),
  };
}

/** Waits (up to 30 s) until the process uses under 5 % of a core over a second. */
export async function settle(pid) {
  const cpu = () => {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (1/100 s)
  };
  if (!fs.existsSync(`/proc/${pid}/stat`)) return;
  for (let i = 0; i < 30; i++) {
    const before = cpu();
    await new Promise((r) => setTimeout(r, 1000));
    if (cpu() - before < 5) return;
  }
}

/** One machine-readable line per benchmark; run.mjs collects them for BENCHMARKS.md. */
/**
 * A short 320x180 25 fps clip (ffmpeg), uploaded as a staff member and converted: the review
 * benches' item. Answers its id.
 */
export async function uploadReadyClip(server, headers, { title, seconds, dir }) {
  const { execFileSync } = await import('node:child_process');
  const fs = await import('node:fs');
  const path = await import('node:path');
  const clip = path.join(dir, 'clip.mp4');
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=320x180:rate=25:duration=${seconds}`, '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', clip]);
  const form = new FormData();
  form.set('title', title);
  form.set('isFeatured', 'false');
  form.set('showInPortfolio', 'false');
  form.set('file', new Blob([fs.readFileSync(clip)], { type: 'video/mp4' }), 'clip.mp4');
  const made = await fetch(`${server.url}/api/media`, { method: 'POST', headers, body: form });
  if (made.status !== 201) throw new Error(`upload: ${made.status} ${await made.text()}`);
  const id = (await made.json()).id;
  for (let i = 0; ; i++) {
    const p = await (await fetch(`${server.url}/api/media/${id}/processing`, { headers })).json();
    if (p.processingStatus === 'ready') return id;
    if (p.processingStatus === 'failed' || i > 600) throw new Error(`processing: ${p.processingStatus}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function emit(name, data) {
  console.log(`BENCH_RESULT ${JSON.stringify({ name, ...data })}`);
}

export const ms = (v) => (v === undefined || v === null ? '–' : `${Number(v).toFixed(1)} ms`);
export const num = (v, d = 0) => Number(v).toLocaleString('en-GB', { maximumFractionDigits: d, minimumFractionDigits: d });

/** Exits on an unhandled failure with a message (benchmarks run as child processes). */
export function main(fn) {
  fn().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
