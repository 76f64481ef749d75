#!/usr/bin/env node
// Issue 42: a shoot of 500 images uploaded at once into a gallery through the resumable upload
// tray, in Chromium, as staff do it (the gallery's "Upload images", one file input, 500 files).
// Reports: the time until the tray says every upload finished and until the job queue has made
// every image's gallery sizes (worker inside the server, as with `npm start`); images per
// second; the page's longest task while the tray worked (the tray must not freeze the page);
// the web process's RSS growth; and that the gallery holds all 500, each once.
// Inputs: 20 distinct 2,400 x 1,600 JPEGs made here with sharp, each file a hard link to one
// of them under its own name (DSC_0001.jpg …).
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { ADMIN, emit, main, num, signIn, startServer } from './lib.mjs';
import { trackMemory } from './media-lib.mjs';
import { pictureJpeg, tmp } from './proofing-lib.mjs';

const CHROME = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const IMAGES = Number(process.env.BENCH_MEDIA || 500);
const DISTINCT = 20;
/** Upload speed of the emulated connection in Mbit/s (0: the loopback, unthrottled). */
const UPLOAD_MBIT = Number(process.env.BENCH_UPLOAD_MBIT || 0);

main(async () => {
  const dir = tmp('proofing-tray-');
  const distinct = [];
  for (let i = 0; i < DISTINCT; i++) {
    const file = path.join(dir, `distinct-${i}.jpg`);
    fs.writeFileSync(file, await pictureJpeg(2400, 1600, i + 1, 85));
    distinct.push(file);
  }
  const files = Array.from({ length: IMAGES }, (_, i) => {
    const file = path.join(dir, `DSC_${String(i + 1).padStart(4, '0')}.jpg`);
    fs.linkSync(distinct[i % DISTINCT], file);
    return file;
  });
  const bytes = files.reduce((n, f) => n + fs.statSync(f).size, 0);

  const server = await startServer();
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  try {
    const cookie = await signIn(server.url, 'staff', ADMIN.username, ADMIN.password);
    const created = await fetch(`${server.url}/api/galleries`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: server.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Five hundred', mediaIds: [] }),
    });
    if (created.status !== 201) throw new Error(`gallery: ${created.status} ${await created.text()}`);
    const gallery = await created.json();
    const gallerySummary = async () => {
      const r = await fetch(`${server.url}/api/galleries/${gallery.id}`, { headers: { Cookie: cookie } });
      const body = await r.json();
      return { total: body.images.length, ready: body.images.filter((i) => i.ready).length, names: body.images.map((i) => i.filename) };
    };

    const { hostname } = new URL(server.url);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies(cookie.split('; ').map((pair) => ({ name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1), domain: hostname, path: '/' })));
    await context.addInitScript(() => {
      window.__long = [];
      new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__long.push(e.duration))).observe({ type: 'longtask', buffered: true });
    });
    const page = await context.newPage();
    if (UPLOAD_MBIT) {
      // A studio's connection rather than the loopback: Chromium's own throttling (DevTools).
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 10, downloadThroughput: (UPLOAD_MBIT * 4 * 1e6) / 8, uploadThroughput: (UPLOAD_MBIT * 1e6) / 8 });
    }
    await page.goto(`${server.url}/admin/galleries/${gallery.id}`);
    // The gallery editor hydrated (other islands may wait for a media query or a view).
    await page.waitForFunction(() => {
      const input = document.querySelector('[data-testid="gallery-upload-input"]');
      return input && !input.closest('astro-island[ssr]');
    });
    await page.evaluate(() => (window.__long = []));

    const memory = trackMemory(server.proc.pid);
    const t0 = performance.now();
    await page.getByTestId('gallery-upload-input').setInputFiles(files);
    await page.getByTestId('upload-tray').getByText(`${IMAGES} uploads finished`).waitFor({ timeout: 30 * 60_000 });
    const uploadedMs = performance.now() - t0;
    const long = await page.evaluate(() => window.__long);
    const rss = memory.stop();
    let summary = await gallerySummary();
    while (summary.ready < IMAGES) {
      await new Promise((r) => setTimeout(r, 500));
      summary = await gallerySummary();
    }
    const readyMs = performance.now() - t0;
    const once = new Set(summary.names).size === summary.names.length && summary.total === IMAGES;
    const worst = long.length ? Math.max(...long) : 0;

    console.log(`${num(IMAGES)} JPEGs of 2,400 x 1,600 (${num(bytes / 2 ** 20)} MB; ${DISTINCT} distinct pictures) chosen at once in the gallery's "Upload images", through the tray (tus)${UPLOAD_MBIT ? `, on a connection of ${UPLOAD_MBIT} Mbit/s up` : ''}`);
    console.log(`  every upload finished (the tray's word): ${(uploadedMs / 1000).toFixed(1)} s, ${num(IMAGES / (uploadedMs / 1000), 1)} images/s, ${num(bytes / 2 ** 20 / (uploadedMs / 1000), 1)} MB/s`);
    console.log(`  every image's gallery sizes made by the queue: ${(readyMs / 1000).toFixed(1)} s after the files were chosen`);
    console.log(`  in the gallery: ${summary.total} images, each once: ${once ? 'yes' : 'NO'}`);
    console.log(`  the page while the tray worked: ${long.length} long tasks, the longest ${worst.toFixed(0)} ms`);
    console.log(`  web process (with its worker) RSS: ${rss.idleMB.toFixed(0)} MB before, peak ${rss.peakMB.toFixed(0)} MB (+${rss.growthMB.toFixed(0)} MB)`);
    emit('proofing-tray', { images: IMAGES, uploadMbit: UPLOAD_MBIT, bytes, uploadedMs, readyMs, longTasks: long.length, worstLongTaskMs: worst, rss, once });
    if (!once) throw new Error('the gallery does not hold every upload exactly once');
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
