// Public pages through the real server (page cache warm) against a bare node:http server
// answering the same bytes on the same machine (both 10 s × BENCH_ROUNDS, alternating). Goal: ratio ≥ 0.5 of the bare requests/s.
import http from 'node:http';
import { startServer, startBareServer, cannon, emit, main, ms, num, settle, DURATION, CONNECTIONS } from './lib.mjs';

const PAGES = (process.env.BENCH_PAGES || '/,/portfolio,/services').split(',');
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);

const BROWSER_ENCODING = 'gzip, deflate, br';

/** GET without decoding: the exact bytes and headers on the wire. */
function rawGet(url, headers) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/** Requests/s over all runs; the worst p99 of them. */
function pool(runs) {
  return {
    rps: runs.reduce((s, r) => s + r.rps, 0) / runs.length,
    p99: Math.max(...runs.map((r) => r.p99)),
    p50: runs.reduce((s, r) => s + r.p50, 0) / runs.length,
    requests: runs.reduce((s, r) => s + r.requests, 0),
    non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
    errors: runs.reduce((s, r) => s + r.errors, 0),
    runs: runs.map((r) => Math.round(r.rps)),
  };
}

main(async () => {
  const server = await startServer({ env: { DEMO_CONTENT: 'true' } });
  const rows = [];
  try {
    // The first page measured used to come out far lower whichever page it was: right after
    // start the process is still busy (demo media, JIT). Warm every page, then wait for quiet.
    for (const page of PAGES) await cannon({ url: server.url + page, duration: 3 });
    await settle(server.proc.pid);
    // Each page as autocannon asks for it (no Accept-Encoding), and the first page also as a
    // browser does (br), each against the bare server holding exactly those bytes.
    const variants = [...PAGES.map((page) => ({ page, encoding: null })), { page: PAGES[0], encoding: BROWSER_ENCODING }];
    for (const { page, encoding } of variants) {
      const requestHeaders = encoding ? { 'accept-encoding': encoding } : {};
      // Warm the cache and take the exact bytes and headers the app serves.
      await rawGet(server.url + page, requestHeaders);
      const res = await rawGet(server.url + page, requestHeaders);
      const body = res.body;
      if (res.status !== 200) throw new Error(`${page} answered ${res.status}`);
      const cacheState = res.headers['x-page-cache'];
      const headers = {};
      for (const [k, v] of Object.entries(res.headers)) if (!['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)) headers[k] = v;
      const label = encoding ? `${page} (${res.headers['content-encoding'] ?? 'identity'})` : page;

      // The machine is shared: alternate app and bare runs and pool them, so drift in the
      // background load hits both sides alike.
      const bare = await startBareServer(body, headers);
      // Untimed warm-up of both (JIT, connection set-up) before the measured runs.
      await cannon({ url: server.url + page, duration: 2, headers: requestHeaders });
      await cannon({ url: bare.url + page, duration: 2, headers: requestHeaders });
      const appRuns = [];
      const bareRuns = [];
      try {
        for (let round = 0; round < ROUNDS; round++) {
          appRuns.push(await cannon({ url: server.url + page, headers: requestHeaders }));
          bareRuns.push(await cannon({ url: bare.url + page, headers: requestHeaders }));
        }
      } finally {
        await bare.stop();
      }
      const app = pool(appRuns);
      const ref = pool(bareRuns);
      const row = { page: label, bytes: body.length, cacheState, app, bare: ref, ratio: app.rps / ref.rps };
      rows.push(row);
      console.log(
        `${label.padEnd(11)} ${num(body.length)} B  app ${num(app.rps)} req/s p99 ${ms(app.p99)} (${cacheState})  ` +
          `bare ${num(ref.rps)} req/s p99 ${ms(ref.p99)}  ratio ${app.rps === 0 ? 0 : (app.rps / ref.rps).toFixed(2)}` +
          (app.non2xx || app.errors ? `  [app non-2xx ${app.non2xx}, errors ${app.errors}]` : ''),
      );
    }
  } finally {
    await server.stop();
  }
  emit('ssr', { duration: DURATION, connections: CONNECTIONS, rounds: ROUNDS, rows });
});
