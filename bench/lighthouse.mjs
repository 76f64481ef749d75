#!/usr/bin/env node
// Lighthouse (mobile defaults: Moto G Power emulation, simulated slow 4G, 4x CPU slowdown)
// on the five public pages, against the real built server with demo content, driving
// Debian's Chromium. Also weighs the JavaScript the home page loads before any interaction
// (every script requested during the Lighthouse load, gzip-compressed here because the
// Node server itself does not compress).
//   node bench/lighthouse.mjs            (needs a build; STUDIO_OUT_DIR picks the folder)
//   LH_RUNS=3 node bench/lighthouse.mjs  median of several runs per page
//   LH_PAGES=/,/about node bench/lighthouse.mjs  only these pages
import zlib from 'node:zlib';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { ADMIN, emit, signIn, startServer } from './lib.mjs';

const PAGES = process.env.LH_PAGES ? process.env.LH_PAGES.split(',') : ['/', '/portfolio', '/about', '/services', '/contact', '/portfolio/studio-showreel-teaser'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const RUNS = Math.max(1, Number(process.env.LH_RUNS || 1));
const CHROME = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const JS_BUDGET_BYTES = 100 * 1024;

const median = (xs) => {
  const v = xs.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)] : NaN;
};

const server = await startServer({ env: { DEMO_CONTENT: 'true' } });
const chrome = await chromeLauncher.launch({
  chromePath: CHROME,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});

/**
 * The home hero plays the demo showreel as its background, as a studio's site would: the
 * pages are measured with a video background served from its 720p rendition.
 */
async function useVideoBackground(base) {
  const cookie = await signIn(base, 'staff', ADMIN.username, ADMIN.password);
  const headers = { Cookie: cookie, Origin: base, 'Content-Type': 'application/json' };
  const list = await (await fetch(`${base}/api/media`, { headers })).json();
  const video = (Array.isArray(list) ? list : list.items ?? list.media).find((m) => m.type === 'video');
  for (let i = 0; i < 600; i++) {
    const p = await (await fetch(`${base}/api/media/${video.id}/processing`, { headers })).json();
    if (p.processingStatus === 'ready') break;
    if (p.processingStatus === 'failed') throw new Error(`demo video failed: ${p.processingError}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const res = await fetch(`${base}/api/website-settings/hero`, { method: 'PUT', headers, body: JSON.stringify({ backgroundVideoId: video.id }) });
  if (!res.ok) throw new Error(`setting the hero video failed: ${res.status} ${await res.text()}`);
  const html = await (await fetch(`${base}/`)).text();
  const src = /<video[^>]*\sdata-src="([^"]+)"/.exec(html)?.[1];
  console.log(`Home hero background video: ${src ?? 'none found in the HTML'}`);
}

try {
  await useVideoBackground(server.url);
  // Warm the page cache once so the first run is not measuring a cold render.
  for (const p of PAGES) await fetch(server.url + p).then((r) => r.arrayBuffer());

  const pages = [];
  // Scripts each page loads before interaction (the home page and any watch page are weighed).
  const scriptsOf = new Map();
  for (const p of PAGES) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      // A trace that failed to record (e.g. NO_NAVSTART on a busy machine) says nothing about
      // the page: try that run again, up to twice, and say so.
      let lhr;
      for (let attempt = 1; attempt <= 3; attempt++) {
        lhr = (await lighthouse(server.url + p, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES })).lhr;
        if (!lhr.runtimeError) break;
        console.log(`${p}: Lighthouse runtime error ${lhr.runtimeError.code} (attempt ${attempt} of 3): ${lhr.runtimeError.message}`);
      }
      runs.push({
        scores: Object.fromEntries(CATEGORIES.map((c) => [c, lhr.categories[c]?.score == null ? NaN : Math.round(lhr.categories[c].score * 100)])),
        lcp: lhr.audits['largest-contentful-paint']?.numericValue,
        tbt: lhr.audits['total-blocking-time']?.numericValue,
        cls: lhr.audits['cumulative-layout-shift']?.numericValue,
        fcp: lhr.audits['first-contentful-paint']?.numericValue,
        failed: Object.values(lhr.audits)
          .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
          .map((a) => a.id),
      });
      if ((p === '/' || p.startsWith('/portfolio/')) && i === 0) {
        scriptsOf.set(
          p,
          (lhr.audits['network-requests']?.details?.items ?? []).filter((r) => r.resourceType === 'Script').map((r) => r.url),
        );
      }
    }
    const pick = (k) => median(runs.map((r) => r.scores[k]));
    const row = {
      page: p,
      performance: pick('performance'),
      accessibility: pick('accessibility'),
      bestPractices: pick('best-practices'),
      seo: pick('seo'),
      lcpMs: Math.round(median(runs.map((r) => r.lcp))),
      fcpMs: Math.round(median(runs.map((r) => r.fcp))),
      tbtMs: Math.round(median(runs.map((r) => r.tbt))),
      cls: Number(median(runs.map((r) => r.cls)).toFixed(3)),
      failedAudits: [...new Set(runs.flatMap((r) => r.failed))],
    };
    pages.push(row);
    console.log(
      `${p.padEnd(11)} perf ${row.performance}  a11y ${row.accessibility}  best ${row.bestPractices}  seo ${row.seo}` +
        `   FCP ${row.fcpMs} ms  LCP ${row.lcpMs} ms  TBT ${row.tbtMs} ms  CLS ${row.cls}` +
        (row.failedAudits.length ? `   failing: ${row.failedAudits.join(', ')}` : ''),
    );
  }

  const kb = (b) => (b / 1024).toFixed(1);
  const weights = {};
  for (const [p, urls] of scriptsOf) {
    let raw = 0;
    let gzip = 0;
    let brotli = 0;
    for (const url of urls) {
      const body = Buffer.from(await (await fetch(url)).arrayBuffer());
      raw += body.length;
      gzip += zlib.gzipSync(body, { level: 9 }).length;
      brotli += zlib.brotliCompressSync(body).length;
    }
    weights[p] = { files: urls.length, rawBytes: raw, gzipBytes: gzip, brotliBytes: brotli, budgetBytes: JS_BUDGET_BYTES };
    console.log(
      `JavaScript on ${p} before interaction: ${urls.length} files, ${kb(raw)} KB raw, ${kb(gzip)} KB gzip, ${kb(brotli)} KB brotli ` +
        `(budget ${kb(JS_BUDGET_BYTES)} KB compressed: ${gzip <= JS_BUDGET_BYTES ? 'within' : 'OVER'})`,
    );
  }
  emit('lighthouse', { runs: RUNS, pages, homeJs: weights['/'], js: weights });
} finally {
  chrome.kill();
  await server.stop();
}
