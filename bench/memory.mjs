// Memory and start-up (issue 43), each process kind against a bare Astro 7 + React server of
// the same Node built and measured in the same run (bench/bare-astro: one page, one island):
//  1. RSS of each kind: right after start (settled), after BENCH_REQUESTS (1,000) requests
//     (the app: public pages, the admin API and pages, the portal; the bare server: its page),
//     then after BENCH_IDLE_SECONDS (60) idle. Kinds: a web process (WORKER=off), `npm start`
//     (web + worker in one), a worker alone (`npm run worker`, idle only), the bare server; and
//     a web process's first start on an empty folder with the demo content (which it seeds, the
//     proofing gallery included) serving public pages only (/, /portfolio, /services, /about:
//     issue 51, where it held 163-167 MB). Budgets: web ≤ 150 MB (both mixes), worker ≤ 120 MB,
//     all-in-one ≤ 200 MB (after the idle minute).
//  2. Start-up: `scripts/start.mjs --no-build` on the existing database and build, from spawn
//     to the first 200 of `/`, BENCH_STARTS (7) times, median (budget ≤ 2 s); the bare server
//     the same way.
//  3. A 4K ProRes 422 source (BENCH_4K_SECONDS, default 3) converted by a worker process with
//     the default threads while a web process serves: peak RSS of web, worker and ffmpeg, and
//     of the three together.
// RSS is VmRSS from /proc (anonymous and file-backed pages: the Node binary's own pages count).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, signIn, emit, main, ROOT, OUT_DIR, ADMIN, DEMO_CLIENT, settle } from './lib.mjs';
import { streamUpload } from './media-lib.mjs';

const IDLE_S = Number(process.env.BENCH_IDLE_SECONDS || 60);
const REQUESTS = Number(process.env.BENCH_REQUESTS || 1000);
const STARTS = Number(process.env.BENCH_STARTS || 7);
const UHD_SECONDS = Number(process.env.BENCH_4K_SECONDS || 3);
const MB = 1024 * 1024;
/** A first start seeds the demo before it listens: minutes on a busy machine. */
const SEED_TIMEOUT_MS = 600_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resident memory of a process: total, anonymous (its own) and file-backed (binary, libraries). */
function memory(pid) {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS') / MB, anon: kb('RssAnon') / MB, file: kb('RssFile') / MB };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Builds the bare reference into a folder of the repository (its imports resolve from here). */
function buildBare() {
  const outDir = path.join(ROOT, `dist-bare-${process.pid}`);
  const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: path.join(ROOT, 'bench/bare-astro'),
    env: { ...process.env, BARE_OUT_DIR: outDir, ASTRO_TELEMETRY_DISABLED: '1' },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`bare build failed:\n${r.stdout}\n${r.stderr}`);
  return outDir;
}

/** The bare server on a port of its own choosing; answers once it serves its page. */
async function startBare(outDir, t0 = performance.now()) {
  const proc = spawn(process.execPath, [path.join(outDir, 'server/entry.mjs')], { env: { ...process.env, HOST: '127.0.0.1', PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const port = await new Promise((resolve, reject) => {
    proc.stdout.on('data', (c) => {
      out += c;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/i.exec(out);
      if (m) resolve(Number(m[1]));
    });
    proc.once('exit', (code) => reject(new Error(`bare server exited with ${code}: ${out}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  await firstOk(url);
  return { proc, url, startMs: performance.now() - t0, stop: () => stopProc(proc) };
}

function stopProc(proc) {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.removeAllListeners('exit');
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
    setTimeout(() => proc.kill('SIGKILL'), 5000).unref();
  });
}

/** Polls until `url` answers 200 (connection refused meanwhile). */
async function firstOk(url, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > end) throw new Error(`${url} never answered 200`);
    await sleep(10);
  }
}

/** `count` requests, 4 at a time, cycling through `paths` ([path, cookie]); fails on any 5xx. */
async function load(base, paths, count) {
  let next = 0;
  const statuses = {};
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) {
        const [p, cookie] = paths[next++ % paths.length];
        const res = await fetch(base + p, { headers: { 'Accept-Encoding': 'gzip, br', ...(cookie ? { Cookie: cookie } : {}) } });
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status >= 500) throw new Error(`${p}: ${res.status}`);
      }
    }),
  );
  return statuses;
}

/** Public pages, the admin API and pages, the portal: what a day of the app asks. */
async function mixedPaths(base) {
  const staff = await signIn(base, 'staff', ADMIN.username, ADMIN.password);
  const client = await signIn(base, 'client', DEMO_CLIENT.username, DEMO_CLIENT.password);
  const list = await (await fetch(`${base}/api/media`, { headers: { Cookie: staff } })).json();
  const items = Array.isArray(list) ? list : (list.items ?? list.media ?? []);
  const watch = items.filter((m) => m.slug && m.showInPortfolio).map((m) => [`/portfolio/${m.slug}`, null]);
  const pub = ['/', '/portfolio', '/services', '/about', '/contact', '/privacy-policy', '/sitemap-index.xml', '/sitemap-0.xml', '/robots.txt', '/no-such-page'].map((p) => [p, null]);
  const admin = ['/api/media', '/api/clients', '/api/users', '/api/roles', '/api/enquiries', '/api/share-links', '/api/stats', '/api/notifications', '/admin/dashboard', '/admin/media', '/admin/clients', '/admin/users', '/admin/website-customization', '/api/website-settings'].map((p) => [p, staff]);
  const portal = ['/client/dashboard', '/api/client/media', '/api/client/notifications', '/api/client/profile', '/portfolio'].map((p) => [p, client]);
  // Interleaved, so each stretch of requests mixes the three.
  const out = [];
  const groups = [[...pub, ...watch], admin, portal];
  for (let i = 0; out.length < REQUESTS; i++) for (const g of groups) out.push(g[i % g.length]);
  return out.slice(0, REQUESTS);
}

/** The public pages a visitor reads, for the first-start mix. */
const PUBLIC_PAGES = ['/', '/portfolio', '/services', '/about'].map((p) => [p, null]);

/** Settled RSS right after start, after the requests, after the idle wait. */
async function measure(kind, pid, work) {
  await settle(pid);
  const start = memory(pid);
  const statuses = work ? await work() : null;
  await settle(pid);
  const loaded = memory(pid);
  await sleep(IDLE_S * 1000);
  const idle = memory(pid);
  const f = (m) => `${m.rss.toFixed(0)} MB (anonymous ${m.anon.toFixed(0)})`;
  console.log(`${kind}: start ${f(start)}, after ${statuses ? `${REQUESTS} requests ${f(loaded)}` : 'no requests'}, after ${IDLE_S} s idle ${f(idle)}`);
  return { start, loaded, idle, statuses };
}

function spawnWorker(server, env = {}) {
  const proc = spawn(process.execPath, [path.join(ROOT, 'scripts/worker.mjs')], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: `file:${server.dbFile}`, MEDIA_DIR: server.mediaDir, NOTIFY_DIR: path.join(server.dir, 'outbox'), DEMO_CONTENT: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  proc.stdout.on('data', (c) => (log += c));
  proc.stderr.on('data', (c) => (log += c));
  const ready = new Promise((resolve, reject) => {
    const t = setInterval(() => {
      if (log.includes('STUDIO_WORKER_READY')) resolve(), clearInterval(t);
      if (proc.exitCode !== null) reject(new Error(`worker exited: ${log}`)), clearInterval(t);
    }, 20);
  });
  return { proc, ready, log: () => log, stop: () => stopProc(proc) };
}

/** Child processes of `pid` (ffmpeg is spawned through nice, which execs it). */
function childrenOf(pid) {
  const out = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return out;
}

async function untilJobsDone(server) {
  for (;;) {
    const r = await server.sql.execute("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')");
    if (Number(r.rows[0].n) === 0) return;
    await sleep(500);
  }
}

main(async () => {
  console.log('Building the bare Astro + React reference...');
  const bareDir = buildBare();
  const results = { requests: REQUESTS, idleSeconds: IDLE_S, node: process.version, cores: os.availableParallelism(), memoryGiB: os.totalmem() / 2 ** 30 };
  try {
    // The library: demo content, its videos converted, so later runs start on a settled database.
    console.log('Seeding the demo library and converting its videos...');
    const seeded = await startServer({ env: { DEMO_CONTENT: 'true' }, startTimeoutMs: SEED_TIMEOUT_MS });
    const dir = seeded.dir;
    await untilJobsDone(seeded);
    // Not stop(): that removes the folder of a server it made.
    seeded.sql.close();
    await seeded.kill();

    const kinds = {};
    console.log('Bare Astro + React server...');
    {
      const bare = await startBare(bareDir);
      try {
        kinds.bare = await measure('bare', bare.proc.pid, () => load(bare.url, [['/', null]], REQUESTS));
      } finally {
        await bare.stop();
      }
    }
    for (const [kind, env] of [
      ['web', { WORKER: 'off' }],
      ['allInOne', { WORKER: 'on' }],
    ]) {
      console.log(`${kind}...`);
      const server = await startServer({ dir, env });
      try {
        const paths = await mixedPaths(server.url);
        kinds[kind] = await measure(kind, server.proc.pid, () => load(server.url, paths, REQUESTS));
      } finally {
        await server.stop();
      }
    }
    console.log('webFirstStart (demo content seeded by the process, public pages only)...');
    {
      // A folder of its own, empty: the process migrates and seeds the demo itself.
      const server = await startServer({ env: { WORKER: 'off', DEMO_CONTENT: 'true' }, startTimeoutMs: SEED_TIMEOUT_MS });
      try {
        kinds.webFirstStart = await measure('webFirstStart', server.proc.pid, () => load(server.url, PUBLIC_PAGES, REQUESTS));
      } finally {
        await server.stop();
      }
    }
    console.log('worker...');
    {
      const web = await startServer({ dir, env: { WORKER: 'off' } });
      const worker = spawnWorker(web);
      try {
        await worker.ready;
        kinds.worker = await measure('worker', worker.proc.pid, null);
      } finally {
        await worker.stop();
        await web.stop();
      }
    }
    results.kinds = kinds;

    console.log(`Start-up, ${STARTS} times each...`);
    const appStarts = [];
    const bareStarts = [];
    for (let i = 0; i < STARTS; i++) {
      const t0 = performance.now();
      const server = await startServer({ dir });
      await firstOk(`${server.url}/`);
      appStarts.push(performance.now() - t0);
      await server.stop();
      const bare = await startBare(bareDir);
      bareStarts.push(bare.startMs);
      await bare.stop();
    }
    results.startup = { app: appStarts, bare: bareStarts, appMedian: median(appStarts), bareMedian: median(bareStarts) };
    console.log(`start-up to the first 200: app median ${results.startup.appMedian.toFixed(0)} ms (${appStarts.map((x) => x.toFixed(0)).join(', ')}), bare ${results.startup.bareMedian.toFixed(0)} ms`);

    if (UHD_SECONDS > 0) {
      console.log(`A ${UHD_SECONDS} s 4K ProRes 422 source through a worker process...`);
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-memory-'));
      const source = path.join(work, 'uhd.mov');
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=3840x2160:rate=24:duration=${UHD_SECONDS}`, '-f', 'lavfi', '-i', `sine=duration=${UHD_SECONDS}`, '-c:v', 'prores_ks', '-profile:v', '2', '-pix_fmt', 'yuv422p10le', '-c:a', 'pcm_s16le', source]);
      const web = await startServer({ dir, env: { WORKER: 'off' } });
      const worker = spawnWorker(web, { JOB_POLL_MS: '200' });
      try {
        await worker.ready;
        const cookie = await signIn(web.url, 'staff', ADMIN.username, ADMIN.password);
        const peak = { web: 0, worker: 0, ffmpeg: 0, total: 0 };
        let threads = null;
        let sampling = true;
        const sampler = (async () => {
          while (sampling) {
            try {
              const w = memory(web.proc.pid).rss;
              const k = memory(worker.proc.pid).rss;
              let f = 0;
              for (const child of childrenOf(worker.proc.pid)) {
                try {
                  const cmd = fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0');
                  if (!cmd.some((a) => a.endsWith('ffmpeg'))) continue;
                  f += memory(child).rss;
                  const i = cmd.indexOf('-threads');
                  if (threads === null) threads = i >= 0 ? Number(cmd[i + 1]) : 'ffmpeg default';
                } catch {
                  /* ended between the listing and the read */
                }
              }
              peak.web = Math.max(peak.web, w);
              peak.worker = Math.max(peak.worker, k);
              peak.ffmpeg = Math.max(peak.ffmpeg, f);
              peak.total = Math.max(peak.total, w + k + f);
            } catch {
              /* a process ended */
            }
            await sleep(50);
          }
        })();
        const t0 = performance.now();
        const up = await streamUpload(web.url, cookie, source, { title: '4K ProRes' });
        if (up.status !== 201) throw new Error(`upload: ${up.status} ${up.body}`);
        const id = JSON.parse(up.body).id;
        let done;
        for (;;) {
          done = await (await fetch(`${web.url}/api/media/${id}/processing`, { headers: { Cookie: cookie } })).json();
          if (done.processingStatus === 'ready' || done.processingStatus === 'failed') break;
          await sleep(250);
        }
        sampling = false;
        await sampler;
        // A conversion that failed (on a machine too busy, its time limit) still reached its peak.
        const failure = done.processingStatus === 'ready' ? null : (/failed: (.*)/.exec(worker.log())?.[1] ?? done.processingStatus);
        results.transcode = { seconds: UHD_SECONDS, bytes: fs.statSync(source).size, ms: performance.now() - t0, threads, peak, ladder: done.renditions?.map((r) => r.label) ?? [], failure };
        console.log(`4K transcode (${threads} threads): peak web ${peak.web.toFixed(0)} MB, worker ${peak.worker.toFixed(0)} MB, ffmpeg ${peak.ffmpeg.toFixed(0)} MB, together ${peak.total.toFixed(0)} MB${failure ? ` (the conversion failed: ${failure})` : ''}`);
      } finally {
        await worker.stop();
        await web.stop();
        fs.rmSync(work, { recursive: true, force: true });
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  } finally {
    fs.rmSync(bareDir, { recursive: true, force: true });
  }

  emit('memory', results);
});
