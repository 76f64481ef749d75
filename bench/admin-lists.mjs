// GET /api/media and GET /admin/media with 10,000 media items and 500 clients seeded straight
// into the database. Goal: p95 under 100 ms for the API.
//
// The list is 6.3 MB of JSON (520 KB gzipped), so "latency" depends on who is asking. Each
// figure is measured against a bare node:http server (own process) answering the same bytes
// and headers in the same run, so what the app adds stays visible:
//   wire     node:http client, Accept-Encoding as browsers send it, timed to the last byte
//            (what a load generator or proxy sees; the app's own latency)
//   browser  Chromium's fetch() + arrayBuffer() in a page: the bytes arrive and are inflated
//            to 6.3 MB, one request at a time, as the admin screen makes it
//   undici   Node's fetch() + arrayBuffer(), 2 concurrent: the figure earlier runs reported;
//            undici inflates in JavaScript streams, which dominates its time
// The goal is judged on the first two (p95 of each < 100 ms).
//
// Those rows time cache hits: the list is built once per library version. The *cold* row times
// what the first admin to open the screen after any edit waits for: an edit through the API
// (PUT /api/media/:id), then one GET on the wire, which rebuilds and gzips the whole list. Each
// cold GET is followed by a warm one (the same list, now cached), so the pair shares the
// machine's load. Goal for the cold path: p95 under 300 ms.
//
// The admin screen in Chromium is timed too (first card, every item counted, filtering and
// typing in the search box): figures that used to sit in tests/e2e/admin-media-scale.spec.ts.
import http from 'node:http';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { startServer, startBareServer, ADMIN, signIn, sampleLatency, emit, main, ms, num } from './lib.mjs';
import { seedLibrary } from './seed.mjs';

const MEDIA = Number(process.env.BENCH_MEDIA || 10_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS || 500);
const SAMPLES = Number(process.env.BENCH_SAMPLES || 60);
const CHROME = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const GOAL_MS = 100;
const COLD_GOAL_MS = 300;
const COLD_SAMPLES = Number(process.env.BENCH_COLD_SAMPLES || 20);
const BROWSER_ACCEPT = 'gzip, deflate, br, zstd';

/** GET over node:http with a keep-alive agent; resolves with the response once its last byte is in. */
function wireGet(agent, url, headers) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const BROWSER_ROUNDS = Number(process.env.BENCH_BROWSER_ROUNDS || 4);

function percentiles(samples) {
  const times = [...samples].sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.ceil((q / 100) * times.length) - 1)];
  return { count: times.length, failures: 0, p50: at(50), p95: at(95), p99: at(99), max: times.at(-1) };
}

/** Times of fetch + arrayBuffer inside a Chromium page (on `origin`), `concurrency` requests in flight. */
async function browserTimes(page, origin, path, { count, concurrency }) {
  if (!page.url().startsWith(origin)) await page.goto(origin + '/robots.txt');
  return page.evaluate(
    async ({ path, count, concurrency }) => {
      const out = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < count) {
            next++;
            const t = performance.now();
            const res = await fetch(path, { cache: 'no-store' });
            const body = await res.arrayBuffer();
            if (res.status !== 200 || body.byteLength === 0) throw new Error(`${path} answered ${res.status}`);
            out.push(performance.now() - t);
          }
        }),
      );
      return out;
    },
    { path, count, concurrency },
  );
}

/**
 * The first GET after an edit (a cache miss: the list is rebuilt and gzipped) and, right after
 * it, a cache hit of the same list, `count` times. Each edit goes through the API as the admin
 * screen makes it; only the GETs are timed.
 */
async function coldTimings(agent, origin, cookie, count) {
  const list = JSON.parse((await wireGet(agent, origin + '/api/media', { Cookie: cookie, 'Accept-Encoding': 'identity' })).body.toString());
  const target = list[list.length >> 1];
  const cold = [];
  const warm = [];
  let seen = 0;
  for (let i = 0; i < count; i++) {
    const title = `Bench edit ${i}`;
    const put = await fetch(`${origin}/api/media/${target.id}`, {
      method: 'PUT',
      headers: { Cookie: cookie, Origin: origin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title }),
    });
    if (put.status !== 200) throw new Error(`PUT /api/media/${target.id} answered ${put.status}`);
    await new Promise((r) => setTimeout(r, 50));
    let t = performance.now();
    const miss = await wireGet(agent, origin + '/api/media', { Cookie: cookie, 'Accept-Encoding': BROWSER_ACCEPT });
    cold.push(performance.now() - t);
    t = performance.now();
    const hit = await wireGet(agent, origin + '/api/media', { Cookie: cookie, 'Accept-Encoding': BROWSER_ACCEPT });
    warm.push(performance.now() - t);
    if (miss.status !== 200 || hit.status !== 200 || miss.headers.etag === undefined) throw new Error('GET /api/media failed after an edit');
    if (i === count - 1) {
      // The rebuilt list carries the edit (checked once, untimed).
      const body = miss.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(miss.body) : miss.body;
      seen = JSON.parse(body.toString()).find((m) => m.id === target.id)?.title === title ? 1 : 0;
      if (!seen) throw new Error('the list after an edit does not show it');
    }
  }
  return { count, cold: percentiles(cold), warm: percentiles(warm) };
}

/**
 * The admin media screen as a user meets it: navigation start until the first card is in the
 * DOM and until the count line reports every item (list fetched, parsed and filtered), over
 * `count` fresh loads; the median and worst load are reported. Then, on the last load, the
 * search box: time from setting its text until the count line shows the expected number
 * (narrow, broad, cleared), and each keystroke of typing "notes for" until the next frame.
 */
async function screenTimings(context, origin, items, count) {
  const total = items.length;
  const page = await context.newPage();
  await page.addInitScript(() => {
    new MutationObserver((_, obs) => {
      if (document.querySelector('[data-testid="media-card"]')) {
        window.__firstCard = performance.now();
        obs.disconnect();
      }
    }).observe(document, { subtree: true, childList: true });
  });
  const want = `Showing ${total} of ${total} items`;
  const loads = [];
  for (let i = 0; i < count; i++) {
    await page.goto(origin + '/admin/media');
    await page.waitForFunction((w) => document.querySelector('[data-testid="media-count"]')?.textContent === w, want, { timeout: 60_000, polling: 'raf' });
    loads.push(await page.evaluate(() => ({ firstCard: window.__firstCard, allCounted: performance.now() })));
  }
  const pick = (k) => loads.map((l) => l[k]).sort((a, b) => a - b);
  const median = (xs) => xs[Math.floor(xs.length / 2)];

  // The screen's own matching (src/islands/admin/media/filtering.ts): lower-cased title, tags,
  // stage and notes contain the text.
  const matches = (q) => items.filter((m) => [m.title, m.tags.join(' '), m.projectStage ?? '', m.notes ?? ''].join('\n').toLowerCase().includes(q)).length;
  const filterMs = (text) =>
    page.evaluate(
      ({ text, want }) =>
        new Promise((resolve, reject) => {
          const input = document.querySelector('input[aria-label="Search media"]');
          const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
          const t0 = performance.now();
          setter.call(input, text);
          input.dispatchEvent(new Event('input', { bubbles: true }));
          const check = () => {
            if (document.querySelector('[data-testid="media-count"]')?.textContent === want) resolve(performance.now() - t0);
            else if (performance.now() - t0 > 30_000) reject(new Error(`count never showed "${want}"`));
            else requestAnimationFrame(check);
          };
          check();
        }),
      { text, want: `Showing ${text ? matches(text.toLowerCase()) : total} of ${total} items` },
    );
  const narrowText = items[items.length - 1].title;
  const filters = {
    narrow: { text: narrowText, matches: matches(narrowText.toLowerCase()), ms: await filterMs(narrowText) },
    broad: { text: 'tag1', matches: matches('tag1'), ms: await filterMs('tag1') },
    reset: { text: '', matches: total, ms: await filterMs('') },
  };

  const search = page.getByLabel('Search media');
  await page.evaluate(() => {
    window.__keys = [];
    document.querySelector('input[aria-label="Search media"]').addEventListener(
      'input',
      (e) => {
        const t0 = e.timeStamp;
        requestAnimationFrame(() => setTimeout(() => window.__keys.push(performance.now() - t0), 0));
      },
      true,
    );
  });
  await search.pressSequentially('notes for', { delay: 80 });
  const typed = `Showing ${matches('notes for')} of ${total} items`;
  await page.waitForFunction((w) => document.querySelector('[data-testid="media-count"]')?.textContent === w, typed, { timeout: 30_000, polling: 'raf' });
  await page.waitForTimeout(300);
  const keys = (await page.evaluate(() => window.__keys)).sort((a, b) => a - b);
  await page.close();
  return {
    loads: count,
    firstCard: { p50: median(pick('firstCard')), max: pick('firstCard').at(-1) },
    allCounted: { p50: median(pick('allCounted')), max: pick('allCounted').at(-1) },
    filters,
    keystroke: { count: keys.length, p50: median(keys), max: keys.at(-1) },
  };
}

const line = (label, s) =>
  `  ${label.padEnd(30)} p50 ${ms(s.p50).padStart(9)}  p95 ${ms(s.p95).padStart(9)}  p99 ${ms(s.p99).padStart(9)}` +
  (s.rps ? `  ${num(s.rps, 1)} req/s` : '') +
  (s.failures ? `  ${s.failures} failed` : '');

main(async () => {
  const server = await startServer();
  const browser = fs.existsSync(CHROME)
    ? await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
    : null;
  const bares = [];
  try {
    const t = performance.now();
    await seedLibrary(server.sql, { media: MEDIA, clients: CLIENTS });
    const seedMs = performance.now() - t;
    console.log(`seeded ${num(MEDIA)} media items and ${num(CLIENTS)} clients in ${ms(seedMs)}`);
    const cookie = await signIn(server.url, 'staff', ADMIN.username, ADMIN.password);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

    let context = null;
    if (browser) {
      context = await browser.newContext();
      const { hostname } = new URL(server.url);
      await context.addCookies(
        cookie.split('; ').map((pair) => {
          const at = pair.indexOf('=');
          return { name: pair.slice(0, at), value: pair.slice(at + 1), domain: hostname, path: '/' };
        }),
      );
    } else {
      console.log(`no Chromium at ${CHROME}: browser rows skipped`);
    }

    const rows = [];
    for (const [path, check] of [
      ['/api/media', (body) => JSON.parse(body).length === MEDIA],
      ['/admin/media', (body) => body.includes('<html')],
    ]) {
      // Checked once, untimed: the answer is complete and what a browser would be sent.
      const plain = await wireGet(agent, server.url + path, { Cookie: cookie, 'Accept-Encoding': 'identity' });
      if (plain.status !== 200 || !check(plain.body.toString())) throw new Error(`${path} did not answer as expected`);
      const sent = await wireGet(agent, server.url + path, { Cookie: cookie, 'Accept-Encoding': BROWSER_ACCEPT });
      if (sent.status !== 200) throw new Error(`${path} answered ${sent.status} to a browser's Accept-Encoding`);
      const headers = {};
      for (const name of ['content-type', 'content-encoding', 'cache-control', 'etag', 'vary']) {
        if (sent.headers[name]) headers[name] = sent.headers[name];
      }
      const bare = await startBareServer(sent.body, headers);
      bares.push(bare);

      const wire = (base, extra) => async () => {
        const res = await wireGet(agent, base + path, { ...extra, 'Accept-Encoding': BROWSER_ACCEPT });
        return res.status === 200 && res.body.length === sent.body.length;
      };
      const row = { path, bytes: plain.body.length, sentBytes: sent.body.length, encoding: headers['content-encoding'] ?? 'identity' };
      console.log(`${path}: ${num(row.bytes)} B, ${num(row.sentBytes)} B sent (${row.encoding})`);
      // Alternate app and bare so both see the same background load.
      for (const round of [0, 1]) {
        const app = await sampleLatency(wire(server.url, { Cookie: cookie }), { count: SAMPLES, concurrency: 2 });
        const ref = await sampleLatency(wire(bare.url, {}), { count: SAMPLES, concurrency: 2 });
        if (round === 1) Object.assign(row, { wire: { app, bare: ref } });
      }
      console.log(line('wire, app (2 concurrent)', row.wire.app));
      console.log(line('wire, bare (2 concurrent)', row.wire.bare));

      if (context && path === '/api/media') {
        // Both sides warmed, then alternating rounds (the order flips each round) so drifting
        // background load on the shared machine hits app and bare alike; samples are pooled.
        const appPage = await context.newPage();
        const barePage = await context.newPage();
        const warm = { count: 5, concurrency: 1 };
        await browserTimes(appPage, server.url, path, warm);
        await browserTimes(barePage, bare.url, path, warm);
        const appTimes = [];
        const bareTimes = [];
        const perRound = Math.ceil(SAMPLES / BROWSER_ROUNDS);
        for (let round = 0; round < BROWSER_ROUNDS; round++) {
          const sides = [
            async () => appTimes.push(...(await browserTimes(appPage, server.url, path, { count: perRound, concurrency: 1 }))),
            async () => bareTimes.push(...(await browserTimes(barePage, bare.url, path, { count: perRound, concurrency: 1 }))),
          ];
          if (round % 2) sides.reverse();
          for (const side of sides) await side();
        }
        row.browser = { app: percentiles(appTimes), bare: percentiles(bareTimes), rounds: BROWSER_ROUNDS };
        console.log(line('Chromium fetch, app', row.browser.app));
        console.log(line('Chromium fetch, bare', row.browser.bare));
        await appPage.close();
        await barePage.close();
      }

      if (path === '/api/media') {
        row.undici = await sampleLatency(
          async () => {
            const res = await fetch(server.url + path, { headers: { Cookie: cookie } });
            return res.status === 200 && (await res.arrayBuffer()).byteLength === plain.body.length;
          },
          { count: SAMPLES, concurrency: 2 },
        );
        console.log(line('Node fetch (undici), app', row.undici));
      }
      rows.push(row);
    }

    let screen = null;
    if (context) {
      const items = JSON.parse((await wireGet(agent, server.url + '/api/media', { Cookie: cookie, 'Accept-Encoding': 'identity' })).body.toString());
      screen = await screenTimings(context, server.url, items, 5);
      const f = screen.filters;
      console.log(
        `/admin/media in Chromium (${screen.loads} loads): first card p50 ${ms(screen.firstCard.p50)} (worst ${ms(screen.firstCard.max)}), ` +
          `all ${num(MEDIA)} items counted p50 ${ms(screen.allCounted.p50)} (worst ${ms(screen.allCounted.max)})`,
      );
      console.log(
        `  search: "${f.narrow.text}" (${f.narrow.matches}) ${ms(f.narrow.ms)}, "${f.broad.text}" (${num(f.broad.matches)}) ${ms(f.broad.ms)}, cleared ${ms(f.reset.ms)}; ` +
          `typing, input to next frame: p50 ${ms(screen.keystroke.p50)}, worst ${ms(screen.keystroke.max)} (${screen.keystroke.count} keys)`,
      );
    }

    // Cold path last: every edit changes the library the rows above were timed on.
    const cold = await coldTimings(agent, server.url, cookie, COLD_SAMPLES);
    const coldGoalMet = cold.cold.p95 < COLD_GOAL_MS;
    console.log(line(`first GET after an edit (${cold.count})`, cold.cold));
    console.log(line('the GET right after it', cold.warm));
    console.log(`cold goal (first GET /api/media after an edit p95 < ${COLD_GOAL_MS} ms on the wire): ${coldGoalMet ? 'met' : 'MISSED'}`);

    const api = rows[0];
    const judged = [api.wire.app.p95, api.browser?.app.p95].filter((v) => v !== undefined);
    const goalMet = judged.every((v) => v < GOAL_MS);
    console.log(`goal (GET /api/media p95 < ${GOAL_MS} ms on the wire and in Chromium): ${goalMet ? 'met' : 'MISSED'}`);
    emit('admin-lists', { media: MEDIA, clients: CLIENTS, seedMs, samples: SAMPLES, rows, screen, goalP95Ms: GOAL_MS, goalMet, cold, coldGoalP95Ms: COLD_GOAL_MS, coldGoalMet });
    agent.destroy();
  } finally {
    await browser?.close();
    for (const bare of bares) await bare.stop();
    await server.stop();
  }
});
