// Through the shipped nginx configuration (deploy/nginx/studio.conf, one web process upstream,
// ACCEL_REDIRECT=true), same run:
// - public pages (page cache warm) through nginx against the same app process answered
//   directly, alternating (issue 33's budget: `/` at least 0.8x the app directly); nginx keeps
//   those pages one second itself (the shipped file's page cache), and says how many of its
//   answers came from there;
// - a 1 GB private original fetched by signed-in staff through nginx (the app checks access
//   and answers X-Accel-Redirect, nginx sends the file) against nginx serving the very same
//   file from a plain static location, alternating (budget: at least 0.95x). The file is made
//   sparse (truncate, then a random 1 MB block every 64 MB) in the server's temporary media
//   folder and read once before the rounds; the client is curl writing to /dev/null.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startServer, ADMIN, signIn, cannon, emit, main, num, DURATION, CONNECTIONS } from './lib.mjs';
import { startNginx } from '../tests/helpers/nginx.ts';

const PAGES = (process.env.BENCH_PAGES || '/,/portfolio').split(',');
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const FILE_ROUNDS = Number(process.env.BENCH_ROUNDS || 5);
const MB = 1024 ** 2;
const SIZE = 1024 * MB;

/** A sparse file of `size` bytes with a random 1 MB block every 64 MB (fast to make, not all zeros). */
function makeSparse(file, size) {
  const fd = fs.openSync(file, 'w');
  try {
    fs.ftruncateSync(fd, size);
    for (let at = 0; at < size; at += 64 * MB) fs.writeSync(fd, randomBytes(MB), 0, MB, at);
  } finally {
    fs.closeSync(fd);
  }
}

/** curl GET to /dev/null: status, bytes and seconds as curl measured them. */
function curl(url, cookie) {
  const out = execFileSync('curl', ['-s', '-o', '/dev/null', '-H', `Cookie: ${cookie}`, '-w', '%{http_code} %{size_download} %{time_total}', url], { encoding: 'utf8' });
  const [status, bytes, seconds] = out.trim().split(' ').map(Number);
  return { status, bytes, seconds };
}

const best = (xs) => Math.max(...xs);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

main(async () => {
  const server = await startServer({ env: { DEMO_CONTENT: 'true', WORKER: 'off', TRUST_PROXY: 'true', ACCEL_REDIRECT: 'true' } });
  const key = randomBytes(16).toString('hex');
  const folder = path.join(server.mediaDir, key);
  fs.mkdirSync(folder, { recursive: true });
  const proxy = await startNginx([server.port], {
    mediaDir: server.mediaDir,
    // The reference: the same file, same sendfile settings, no app in the way.
    extra: `    location ^~ /_bench_static/ {\n        alias ${folder}/;\n        sendfile on;\n        sendfile_max_chunk 2m;\n        tcp_nopush on;\n    }`,
  });
  try {
    const rows = [];
    for (const page of PAGES) {
      for (const base of [server.url, proxy.url]) await cannon({ url: base + page, duration: 2 });
      const app = [];
      const viaNginx = [];
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 ? [[proxy.url, viaNginx], [server.url, app]] : [[server.url, app], [proxy.url, viaNginx]];
        for (const [base, runs] of order) runs.push(await cannon({ url: base + page }));
      }
      const avg = (runs, k) => runs.reduce((s, r) => s + r[k], 0) / runs.length;
      const row = {
        page,
        appRps: avg(app, 'rps'),
        nginxRps: avg(viaNginx, 'rps'),
        appP99: Math.max(...app.map((r) => r.p99)),
        nginxP99: Math.max(...viaNginx.map((r) => r.p99)),
        appErrors: app.reduce((s, r) => s + r.errors + r.non2xx, 0),
        nginxErrors: viaNginx.reduce((s, r) => s + r.errors + r.non2xx, 0),
      };
      rows.push(row);
    }

    const file = path.join(folder, 'original.mp4');
    makeSparse(file, SIZE);
    await server.sql.execute({
      sql: `INSERT INTO media (title, type, storage_key, url, filename, file_size, mime_type) VALUES ('Bench', 'video', ?, ?, 'big.mp4', ?, 'video/mp4')`,
      args: [key, `/media/${key}/original.mp4`, SIZE],
    });
    const cookie = await signIn(proxy.url, 'staff', ADMIN.username, ADMIN.password);
    const accelUrl = `${proxy.url}/media/${key}/original.mp4`;
    const staticUrl = `${proxy.url}/_bench_static/original.mp4`;
    const accel = [];
    const plain = [];
    for (const [url, runs] of [[accelUrl, null], [staticUrl, null]]) {
      const r = curl(url, cookie); // warm: page cache, connections, the access check's queries
      if (r.status !== 200 || r.bytes !== SIZE) throw new Error(`${url}: ${r.status}, ${r.bytes} bytes`);
    }
    for (let round = 0; round < FILE_ROUNDS; round++) {
      const order = round % 2 ? [[staticUrl, plain], [accelUrl, accel]] : [[accelUrl, accel], [staticUrl, plain]];
      for (const [url, runs] of order) {
        const r = curl(url, cookie);
        if (r.status !== 200 || r.bytes !== SIZE) throw new Error(`${url}: ${r.status}, ${r.bytes} bytes`);
        runs.push(SIZE / MB / r.seconds);
      }
    }
    const big = {
      accelBest: best(accel),
      accelMedian: median(accel),
      staticBest: best(plain),
      staticMedian: median(plain),
      accelRuns: accel,
      staticRuns: plain,
    };
    big.ratioBest = big.accelBest / big.staticBest;
    big.ratioMedian = big.accelMedian / big.staticMedian;

    console.log(`ACCEL_REDIRECT=true. Pages: autocannon, ${CONNECTIONS} connections, ${DURATION} s per run, ${ROUNDS} alternating runs per side; page cache warm`);
    for (const r of rows) {
      console.log(`${r.page.padEnd(11)} app ${num(r.appRps).padStart(6)} req/s (p99 ${r.appP99} ms)   via nginx ${num(r.nginxRps).padStart(6)} req/s (p99 ${r.nginxP99} ms)   ratio ${num(r.nginxRps / r.appRps, 2)}${r.page === '/' ? ` (goal >= 0.8: ${r.nginxRps / r.appRps >= 0.8 ? 'met' : 'MISSED'})` : ''}   errors/non-2xx: app ${r.appErrors}, nginx ${r.nginxErrors}`);
    }
    console.log(`1 GB private original (sparse, random 1 MB every 64 MB), curl to /dev/null, ${FILE_ROUNDS} alternating rounds (best / median):`);
    console.log(`nginx static location:          ${num(big.staticBest)} / ${num(big.staticMedian)} MB/s`);
    console.log(`app access check + accel:       ${num(big.accelBest)} / ${num(big.accelMedian)} MB/s   ratio ${num(big.ratioBest, 2)} / ${num(big.ratioMedian, 2)} (goal >= 0.95: ${big.ratioMedian >= 0.95 ? 'met' : 'MISSED'} on the median)`);
    console.log(`per-round MB/s: accel ${accel.map((v) => num(v)).join(' / ')}; static ${plain.map((v) => num(v)).join(' / ')}`);
    // The shipped file keeps public pages one second (deploy/nginx/studio.conf): how many page
    // requests nginx answered itself (no upstream address in its log) and how many reached the app.
    const log = proxy.accessLog();
    for (const page of PAGES) {
      const uri = page.split('?')[0];
      const lines = log.filter((l) => l.startsWith(`GET ${uri} `));
      const fromCache = lines.filter((l) => l.endsWith(' -')).length;
      console.log(`${page.padEnd(11)} through nginx: ${num(fromCache)} of ${num(lines.length)} answered from nginx's one-second page cache, ${num(lines.length - fromCache)} waited for the app (the refresh after each second runs in the background, unlogged)`);
    }
    // autocannon cuts the requests in flight when a run ends: nginx logs those as 499.
    const statuses = {};
    for (const line of log) {
      const status = line.split(' ')[2];
      if (status !== '200') statuses[status] = (statuses[status] ?? 0) + 1;
    }
    console.log(`nginx access log, answers other than 200: ${Object.entries(statuses).map(([k, v]) => `${v} × ${k}`).join(', ') || 'none'} (499 = the client closed the connection first)`);
    const problems = proxy.errorLog().split('\n').filter((l) => /\[(error|crit|alert|emerg)\]/.test(l));
    if (problems.length) console.log(`nginx error log (${problems.length} lines), first: ${problems[0]}`);
    emit('nginx', { rows, big });
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
    await proxy.stop();
    await server.stop();
  }
});
