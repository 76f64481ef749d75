// Public pages with a large library (issue 23): 10,000 items, 1,000 in the portfolio, 200
// featured (bench/seed.mjs plus flags and category tags). For /, /portfolio and a category
// page: HTML size (raw and brotli), the first render after an edit (the site version moved,
// so the page cache misses; median of 7), and Lighthouse mobile (performance, TBT; median of 3).
// Goals: performance >= 95, TBT <= 200 ms, HTML <= 60 KB brotli, first render <= 100 ms.
import zlib from 'node:zlib';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { ADMIN, emit, main, signIn, startServer } from './lib.mjs';
import { seedLibrary } from './seed.mjs';

const CHROME = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const PAGES = ['/', '/portfolio', '/portfolio?category=music-video'];
const RENDERS = 7;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

main(async () => {
  const server = await startServer({ env: { DEMO_CONTENT: 'false', WORKER: 'off' } });
  const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    await seedLibrary(server.sql, { media: 10_000, clients: 20 });
    await server.sql.batch(
      [
        'UPDATE media SET show_in_portfolio = (id % 10 = 0), is_featured = (id % 50 = 0)',
        `UPDATE media SET tags = json_array('bench', CASE id % 40 WHEN 0 THEN 'commercial' WHEN 10 THEN 'documentary' WHEN 20 THEN 'corporate' ELSE 'music video' END) WHERE show_in_portfolio = 1`,
      ],
      'write',
    );
    const counts = (await server.sql.execute('SELECT count(*) AS n, sum(show_in_portfolio) AS p, sum(is_featured) AS f FROM media')).rows[0];
    console.log(`Library: ${counts.n} items, ${counts.p} in the portfolio, ${counts.f} featured`);
    const cookie = await signIn(server.url, 'staff', ADMIN.username, ADMIN.password);
    const branding = await (await fetch(`${server.url}/api/branding-settings`, { headers: { Cookie: cookie } })).json();
    const edit = () =>
      fetch(`${server.url}/api/branding-settings`, { method: 'PUT', headers: { Cookie: cookie, Origin: server.url, 'Content-Type': 'application/json' }, body: JSON.stringify({ companyName: branding.companyName, featuredLimit: branding.featuredLimit }) });
    // Warm: slugs for the whole library are made on the first public read.
    for (const p of PAGES) await (await fetch(server.url + p)).arrayBuffer();

    const rows = [];
    for (const p of PAGES) {
      const html = Buffer.from(await (await fetch(server.url + p)).arrayBuffer());
      const brotli = zlib.brotliCompressSync(html).length;
      const renders = [];
      for (let i = 0; i < RENDERS; i++) {
        if ((await edit()).status !== 200) throw new Error('edit failed');
        const t = performance.now();
        await (await fetch(server.url + p)).arrayBuffer();
        renders.push(performance.now() - t);
      }
      // Median of three Lighthouse runs: one run on these shared 2 cores swings by 20 points.
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push((await lighthouse(server.url + p, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] })).lhr);
      rows.push({
        page: p,
        htmlBytes: html.length,
        brotliBytes: brotli,
        firstRenderMs: median(renders),
        performance: median(runs.map((l) => Math.round((l.categories.performance?.score ?? NaN) * 100))),
        tbtMs: median(runs.map((l) => Math.round(l.audits['total-blocking-time']?.numericValue ?? NaN))),
        lcpMs: median(runs.map((l) => Math.round(l.audits['largest-contentful-paint']?.numericValue ?? NaN))),
      });
    }
    for (const r of rows) {
      const ok = r.performance >= 95 && r.tbtMs <= 200 && r.brotliBytes <= 60 * 1024 && r.firstRenderMs <= 100;
      console.log(
        `${r.page.padEnd(32)} HTML ${(r.htmlBytes / 1024).toFixed(1)} KB (${(r.brotliBytes / 1024).toFixed(1)} KB brotli)  first render after an edit ${r.firstRenderMs.toFixed(0)} ms  perf ${r.performance}  TBT ${r.tbtMs} ms  LCP ${r.lcpMs} ms  ${ok ? 'goals met' : 'GOAL MISSED'}`,
      );
    }
    console.log('Goals: performance >= 95, TBT <= 200 ms, HTML <= 60 KB brotli, first render after an edit <= 100 ms.');
    emit('public-scale', { rows });
  } finally {
    await chrome.kill();
    await server.stop();
  }
});
