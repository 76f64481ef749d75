#!/usr/bin/env node
// Issue 29 budget: 500 notes on one version, the review player's seek bar with its note markers
// renders in under 50 ms in Chromium. A 6 s clip (ffmpeg, 25 fps) gets 500 staff notes through
// the API (a tenth of them ranges, a third resolved); the admin detail dialog is opened ROUNDS
// times. The seek bar's markers are drawn when the new <video> reports its duration
// (loadedmetadata), so each round is timed from that event (a capturing listener on the
// document, before React's) to (a) the markers' strip being in the DOM with all 500 markers
// (a MutationObserver: render and commit), (b) its style and layout (forced there), the budget,
// and (c) the next frame after it (adds the wait for vsync and the paint, with whatever else the
// opening dialog draws). Long tasks during the rounds are reported too. Start-to-commit includes
// React's scheduling gap after the event, so the figures are upper bounds.
// Then scrubbing, the budget's second half ("scrubbing stays smooth: no long task over 50 ms"):
// with the 500 markers shown, the mouse drags the seek bar's thumb across its width in
// SCRUB_STEPS moves ~16 ms apart, as a hand would. The seek bar is a range input whose change
// sets the video's currentTime, so each move is a real seek, a re-render of the bar (time,
// frame preview) and of the strip around the memoised markers. Long tasks are counted only
// between the scrub's first and last move (the figure above includes opening the dialog).
//   npx node bench/review-markers.mjs    (Node 24 from the project; needs a build; run.mjs runs it as `review-markers`)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ADMIN, uploadReadyClip, emit, main, ms, signIn, startServer } from './lib.mjs';

const CHROME = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const NOTES = 500;
// 40 rounds, so that p95 is not simply the worst round.
const ROUNDS = Number(process.env.BENCH_BROWSER_ROUNDS || 40);
const BUDGET_MS = 50;
const SCRUB_STEPS = 60;
const SCRUB_GAP_MS = 16;

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * Opens the dialog once more and drags the seek bar from its left end to its right end. Long
 * tasks come from an observer started just before the first move and are kept only when they
 * began between the first and the last move.
 */
async function scrubbing(page) {
  await page.getByRole('button', { name: 'Open Marker bench' }).click();
  const dialog = page.getByRole('dialog', { name: 'Marker bench' });
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="note-marker"]').length === n, NOTES, { timeout: 30_000 });
  const video = dialog.locator('video');
  await page.waitForFunction(() => (document.querySelector('dialog[open] video')?.readyState ?? 0) >= 1, null, { timeout: 30_000 });
  await video.evaluate((v) => {
    v.muted = true;
    v.pause();
  });
  const seek = dialog.getByTestId('review-seek');
  await seek.scrollIntoViewIfNeeded();
  const box = await seek.boundingBox();
  if (!box) throw new Error('no seek bar');
  const y = box.y + box.height / 2;
  // The thumb's centre runs from half a thumb in from each end; start on it at 0.
  const x0 = box.x + 2;
  const x1 = box.x + box.width - 2;
  await page.mouse.move(x0, y);
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.__scrub = { tasks: [], seeks: 0, start: 0, end: Infinity, from: document.querySelector('dialog[open] video')?.currentTime ?? 0 };
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__scrub.tasks.push({ start: e.startTime, duration: e.duration }))).observe({ type: 'longtask' });
    document.addEventListener('seeking', () => w.__scrub.seeks++, true);
    w.__scrub.start = performance.now();
  });
  await page.mouse.down();
  for (let i = 1; i <= SCRUB_STEPS; i++) {
    await page.mouse.move(x0 + ((x1 - x0) * i) / SCRUB_STEPS, y);
    await new Promise((r) => setTimeout(r, SCRUB_GAP_MS));
  }
  await page.mouse.up();
  await page.evaluate(() => {
    window.__scrub.end = performance.now();
  });
  // Long-task entries arrive after their task: let a frame and a moment pass before reading.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 200))));
  const got = await page.evaluate(() => {
    const s = window.__scrub;
    const tasks = s.tasks.filter((t) => t.start >= s.start && t.start <= s.end).map((t) => t.duration);
    return { tasks, seeks: s.seeks, durationMs: s.end - s.start, fromS: s.from, toS: document.querySelector('dialog[open] video')?.currentTime ?? 0 };
  });
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  if (got.seeks < SCRUB_STEPS / 2) throw new Error(`the scrub sought only ${got.seeks} times: the seek bar did not follow the mouse`);
  const longestMs = got.tasks.length ? Math.max(...got.tasks) : 0;
  return { steps: SCRUB_STEPS, gapMs: SCRUB_GAP_MS, durationMs: got.durationMs, seeks: got.seeks, fromS: got.fromS, toS: got.toS, longTasks: got.tasks.length, longestMs, met: longestMs <= BUDGET_MS };
}

main(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'review-markers-'));
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  try {
    const cookie = await signIn(server.url, 'staff', ADMIN.username, ADMIN.password);
    const headers = { Cookie: cookie, Origin: server.url };
    const id = await uploadReadyClip(server, headers, { title: 'Marker bench', seconds: 6, dir });
    const t0 = performance.now();
    for (let i = 0; i < NOTES; i++) {
      const at = Math.floor((i * 5900) / NOTES);
      const body = { text: `Note ${i + 1}: tighten this cut\nsecond line`, timestampMs: at, ...(i % 10 === 0 ? { endMs: at + 400 } : {}) };
      const res = await fetch(`${server.url}/api/media/${id}/timeline-notes`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      if (res.status !== 201) throw new Error(`note ${i}: ${res.status} ${await res.text()}`);
    }
    await server.sql.execute({ sql: "UPDATE timeline_notes SET resolved_at = datetime('now') WHERE media_id = ? AND id % 3 = 0", args: [id] });
    console.log(`${NOTES} notes made in ${ms(performance.now() - t0)}`);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { hostname } = new URL(server.url);
    await context.addCookies(cookie.split('; ').map((pair) => ({ name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1), domain: hostname, path: '/' })));
    await context.addInitScript(() => {
      const w = /** @type {any} */ (window);
      w.__rounds = [];
      w.__longTasks = [];
      try {
        new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__longTasks.push(e.duration))).observe({ type: 'longtask', buffered: true });
      } catch {}
      document.addEventListener(
        'loadedmetadata',
        () => {
          const start = performance.now();
          const done = () => {
            const strip = document.querySelector('[data-testid="note-markers"]');
            return strip && strip.querySelectorAll('[data-testid="note-marker"]').length > 0 ? strip : null;
          };
          const finish = () => {
            const committed = performance.now();
            const strip = done();
            const count = strip.querySelectorAll('[data-testid="note-marker"]').length;
            // Style and layout of the strip, forced here so they are timed (the browser would do them before the paint).
            strip.lastElementChild?.getBoundingClientRect();
            const laidOut = performance.now();
            requestAnimationFrame(() => setTimeout(() => w.__rounds.push({ committed: committed - start, laidOut: laidOut - start, frame: performance.now() - start, count }), 0));
          };
          if (done()) return finish();
          const mo = new MutationObserver(() => {
            if (!done()) return;
            mo.disconnect();
            finish();
          });
          mo.observe(document.body, { childList: true, subtree: true });
        },
        true,
      );
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/admin/media`);
    await page.locator('astro-island[component-url*="MediaManager"]:not([ssr])').first().waitFor({ state: 'attached' });
    for (let r = 0; r < ROUNDS + 1; r++) {
      await page.getByRole('button', { name: 'Open Marker bench' }).click();
      await page.waitForFunction((n) => window.__rounds.length >= n, r + 1, { timeout: 30_000 }).catch(async (e) => {
        console.error(await page.evaluate(() => JSON.stringify({ rounds: window.__rounds, markers: document.querySelectorAll('[data-testid="note-marker"]').length, video: !!document.querySelector("video"), ready: document.querySelector("video")?.readyState })));
        throw e;
      });
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    }
    const rounds = (await page.evaluate(() => window.__rounds)).slice(1); // the first warms the code up
    const longTasks = await page.evaluate(() => window.__longTasks);
    const scrub = await scrubbing(page);
    if (rounds.some((r) => r.count !== NOTES)) throw new Error(`expected ${NOTES} markers, saw ${rounds.map((r) => r.count).join(', ')}`);
    const committed = rounds.map((r) => r.committed).sort((a, b) => a - b);
    const frame = rounds.map((r) => r.frame).sort((a, b) => a - b);
    const laidOut = rounds.map((r) => r.laidOut).sort((a, b) => a - b);
    const result = {
      notes: NOTES,
      rounds: rounds.length,
      committed: { p50: pct(committed, 50), p95: pct(committed, 95), max: committed.at(-1) },
      laidOut: { p50: pct(laidOut, 50), p95: pct(laidOut, 95), max: laidOut.at(-1) },
      frame: { p50: pct(frame, 50), p95: pct(frame, 95), max: frame.at(-1) },
      longestTask: longTasks.length ? Math.max(...longTasks) : 0,
      budgetMs: BUDGET_MS,
      scrub,
    };
    // The budget is the seek bar's own work: render, commit, style and layout of the strip.
    result.met = result.laidOut.p95 < BUDGET_MS;
    console.log(`${NOTES} markers, ${rounds.length} rounds (after one warm-up), from the video's loadedmetadata:`);
    console.log(`  in the DOM (render + commit)   p50 ${ms(result.committed.p50)}  p95 ${ms(result.committed.p95)}  worst ${ms(result.committed.max)}`);
    console.log(`  + style and layout             p50 ${ms(result.laidOut.p50)}  p95 ${ms(result.laidOut.p95)}  worst ${ms(result.laidOut.max)}`);
    console.log(`  next frame (vsync wait, paint) p50 ${ms(result.frame.p50)}  p95 ${ms(result.frame.p95)}  worst ${ms(result.frame.max)}`);
    console.log(`  longest task on the page over the run: ${ms(result.longestTask)} (long tasks: ${longTasks.length}, includes opening the dialog)`);
    console.log(`  budget: render + commit + layout p95 < ${BUDGET_MS} ms: ${result.met ? 'met' : 'MISSED'}`);
    console.log(`scrubbing the seek bar over the ${NOTES} markers: ${scrub.steps} moves ${SCRUB_GAP_MS} ms apart in ${ms(scrub.durationMs)}, ${scrub.seeks} seeks, playhead ${scrub.fromS.toFixed(2)} s to ${scrub.toS.toFixed(2)} s`);
    console.log(`scrubbing: ${scrub.longTasks} long tasks, longest ${ms(scrub.longestMs)} (budget: none over ${BUDGET_MS} ms: ${scrub.met ? 'met' : 'MISSED'})`);
    emit('review-markers', result);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
