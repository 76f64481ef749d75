// Adaptive streaming in a review player (issue 33), in Chromium with DevTools network
// conditions, on a 60 s 1080p source converted into its ladder (1080p, 720p, 360p):
//  1. 3 Mbit/s (40 ms latency): the portal dialog opened by a click, which starts the video;
//     time from the click to the first presented frame (requestVideoFrameCallback) and every
//     stall (`waiting` to the next frame) over the whole 60 s. Goal: first frame < 1.5 s, no
//     stall. Baseline in the same run: what the player did before (the 1080p proxy as one file,
//     chosen for a large player), same link, same 60 s of wall time.
//  2. 50 Mbit/s: the same dialog; seconds from the first frame until Auto shows 1080p. Goal < 10 s.
//     The page is a laptop's (1280x900 CSS px at 2x), so the 500 px player is 1000 device px tall.
//  3. Storage: the playlists' bytes against the proxies'. Goal: under 1 %.
// BENCH_HLS_SECONDS (default 60) shortens the source for a smoke run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer, ADMIN, signIn, emit, main } from './lib.mjs';
import { streamUpload } from './media-lib.mjs';

const CHROME = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SECONDS = Number(process.env.BENCH_HLS_SECONDS || 60);
const TITLE = 'Hotel wifi cut';

/** Counts frames, stalls and sizes of the portal player from the moment it appears. */
const HOOK = `(() => {
  const b = (window.__bench = { first: null, stalls: [], waitingAt: null, heights: [], t0: null });
  const hook = (v) => {
    if (v.__hooked) return;
    v.__hooked = true;
    v.addEventListener('waiting', () => { if (b.first != null && !v.ended) b.waitingAt ??= performance.now(); });
    const frame = () => {
      const now = performance.now();
      if (b.first == null) b.first = now;
      if (b.waitingAt != null) { b.stalls.push(now - b.waitingAt); b.waitingAt = null; }
      const h = v.videoHeight;
      if (!b.heights.length || b.heights[b.heights.length - 1][1] !== h) b.heights.push([now, h]);
      v.requestVideoFrameCallback(frame);
    };
    v.requestVideoFrameCallback(frame);
  };
  new MutationObserver(() => document.querySelectorAll('video[data-testid="portal-video"], video[data-bench]').forEach(hook)).observe(document, { subtree: true, childList: true });
})()`;

async function throttle(page, bitsPerSecond) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 40, downloadThroughput: bitsPerSecond / 8, uploadThroughput: bitsPerSecond / 8 });
  return cdp;
}

async function newPage(browser, base, cookie) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 2 });
  await context.addCookies(cookie.split('; ').map((c) => ({ name: c.slice(0, c.indexOf('=')), value: c.slice(c.indexOf('=') + 1), url: base })));
  await context.addInitScript(HOOK);
  const page = await context.newPage();
  return { context, page };
}

/**
 * Opens the item in the portal on a link of `bps` and presses Play as soon as the transport is
 * there (the dialog no longer starts by itself, issue 39): the first frame counts from the
 * click that opened it, as before.
 */
async function openInPortal(browser, base, cookie, bps) {
  const { context, page } = await newPage(browser, base, cookie);
  await page.goto(`${base}/client/dashboard`);
  await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
  const open = page.getByRole('button', { name: new RegExp(`Open.*${TITLE}`) });
  await open.waitFor();
  const cdp = await throttle(page, bps);
  await page.evaluate(() => (window.__bench.t0 = performance.now()));
  await open.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Play', exact: true }).click();
  await page.waitForFunction(() => window.__bench.first != null, null, { timeout: 30_000 });
  const b = await page.evaluate(() => window.__bench);
  const via = await page.locator('video[data-testid="portal-video"]').getAttribute('data-stream');
  return { context, page, cdp, firstFrameMs: b.first - b.t0, via };
}

/** Plays on until `seconds` of wall time passed or the video ended; stalls and sizes seen. */
async function playFor(page, selector, seconds) {
  const video = page.locator(selector);
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until && !(await video.evaluate((v) => v.ended))) await page.waitForTimeout(500);
  const b = await page.evaluate(() => window.__bench);
  const pending = b.waitingAt != null ? [await page.evaluate(() => performance.now() - window.__bench.waitingAt)] : [];
  const stalls = [...b.stalls.filter((s) => s > 50), ...pending];
  return { stalls, stalledMs: stalls.reduce((a, s) => a + s, 0), played: await video.evaluate((v) => v.currentTime), heights: [...new Set(b.heights.map((h) => h[1]))] };
}

main(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-hls-'));
  const server = await startServer({ env: { DEMO_CONTENT: 'false', JOB_POLL_MS: '50' } });
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox', '--disable-dev-shm-usage', '--autoplay-policy=no-user-gesture-required'] });
  try {
    console.log(`Generating a ${SECONDS} s 1080p source with film grain (so the sizes have real bit rates)...`);
    const source = path.join(dir, 'grade.avi');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=25:duration=${SECONDS}`, '-f', 'lavfi', '-i', `sine=frequency=330:duration=${SECONDS}`, '-vf', 'noise=alls=5:allf=t', '-c:v', 'mpeg4', '-q:v', '3', '-c:a', 'pcm_s16le', source]);
    const staff = await signIn(server.url, 'staff', ADMIN.username, ADMIN.password);
    const { hashPassword } = await import('../src/server/auth/password.ts');
    const client = { username: 'hotel.client', password: 'client-pass-123' };
    const made = await server.sql.execute({ sql: "INSERT INTO clients (name, email) VALUES ('Hotel Client', 'hotel@clients.test') RETURNING id", args: [] });
    client.clientId = Number(made.rows[0].id);
    await server.sql.execute({
      sql: 'INSERT INTO client_users (client_id, username, email, password_hash) VALUES (?, ?, ?, ?)',
      args: [client.clientId, client.username, 'login.hotel@clients.test', await hashPassword(client.password)],
    });
    const up = await streamUpload(server.url, staff, source, { title: TITLE, clientId: String(client.clientId) });
    if (up.status !== 201) throw new Error(`upload failed: ${up.status} ${up.body}`);
    const { id, url: originalUrl } = JSON.parse(up.body);
    let item;
    for (;;) {
      item = await (await fetch(`${server.url}/api/media/${id}/processing`, { headers: { Cookie: staff } })).json();
      if (item.processingStatus === 'ready') break;
      if (item.processingStatus === 'failed') throw new Error(item.processingError);
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(`Ladder: ${item.renditions.map((r) => r.label).join(', ')}`);

    // 3. Storage.
    const key = /\/media\/([a-f0-9]{32})\//.exec(originalUrl)[1];
    const files = fs.readdirSync(path.join(server.mediaDir, key));
    const size = (f) => fs.statSync(path.join(server.mediaDir, key, f)).size;
    const proxyBytes = files.filter((f) => /^\d+p\.mp4$/.test(f)).reduce((a, f) => a + size(f), 0);
    const playlistBytes = files.filter((f) => f.endsWith('.m3u8')).reduce((a, f) => a + size(f), 0);
    const storageShare = playlistBytes / proxyBytes;
    console.log(`Storage: playlists ${playlistBytes.toLocaleString('en-GB')} bytes beside ${proxyBytes.toLocaleString('en-GB')} bytes of proxies: ${(storageShare * 100).toFixed(3)} % (goal < 1 %)`);

    const clientCookie = await signIn(server.url, 'client', client.username, client.password);

    // 1. 3 Mbit/s, streamed.
    const slow = await openInPortal(browser, server.url, clientCookie, 3_000_000);
    const slowPlay = await playFor(slow.page, 'video[data-testid="portal-video"]', SECONDS + 5);
    await slow.context.close();
    console.log(
      `3 Mbit/s, review player (${slow.via}): first frame ${slow.firstFrameMs.toFixed(0)} ms after the click (goal < 1,500 ms); ` +
        `${slowPlay.stalls.length} stall(s), ${(slowPlay.stalledMs / 1000).toFixed(1)} s stalled over ${slowPlay.played.toFixed(1)} s played (goal: none); sizes shown ${slowPlay.heights.map((h) => `${h}p`).join(' → ')}`,
    );

    // Baseline: the 1080p proxy as one file (what a large player picked before), same link.
    const p1080 = item.renditions.find((r) => r.label === '1080p') ?? item.renditions[0];
    const base = await newPage(browser, server.url, clientCookie);
    await base.page.goto(`${server.url}/robots.txt`);
    const bcdp = await throttle(base.page, 3_000_000);
    const baseFirst = await base.page.evaluate(
      (src) =>
        new Promise((resolve) => {
          const v = document.createElement('video');
          v.dataset.bench = '1';
          v.muted = true;
          v.src = src;
          document.body.append(v);
          window.__bench.t0 = performance.now();
          v.play();
          const wait = () => (window.__bench.first != null ? resolve(window.__bench.first - window.__bench.t0) : setTimeout(wait, 20));
          wait();
        }),
      p1080.url,
    );
    const basePlay = await playFor(base.page, 'video[data-bench]', SECONDS + 5);
    await bcdp.detach();
    await base.context.close();
    console.log(
      `3 Mbit/s, baseline (the ${p1080.label} file, progressive): first frame ${baseFirst.toFixed(0)} ms; ${basePlay.stalls.length} stall(s), ${(basePlay.stalledMs / 1000).toFixed(1)} s stalled over ${basePlay.played.toFixed(1)} s played in the same wall time`,
    );

    // 2. 50 Mbit/s: how soon Auto reaches 1080p.
    const fast = await openInPortal(browser, server.url, clientCookie, 50_000_000);
    const top = Math.max(...item.renditions.map((r) => Math.min(r.width, r.height)));
    await fast.page.waitForFunction((h) => window.__bench.heights.some((x) => x[1] >= h), top, { timeout: 30_000 }).catch(() => null);
    const fb = await fast.page.evaluate(() => window.__bench);
    const reached = fb.heights.find((x) => x[1] >= top);
    const toTopS = reached ? (reached[0] - fb.first) / 1000 : null;
    await fast.context.close();
    console.log(
      `50 Mbit/s: first frame ${fast.firstFrameMs.toFixed(0)} ms; Auto showed ${top}p ${toTopS == null ? 'never within 30 s' : `${toTopS.toFixed(1)} s after the first frame`} (goal < 10 s); sizes ${fb.heights.map((h) => `${h[1]}p`).join(' → ')}`,
    );

    emit('hls', {
      seconds: SECONDS,
      ladder: item.renditions.map((r) => r.label),
      slow: { via: slow.via, firstFrameMs: slow.firstFrameMs, stalls: slowPlay.stalls.length, stalledMs: slowPlay.stalledMs, played: slowPlay.played, heights: slowPlay.heights },
      baseline: { firstFrameMs: baseFirst, stalls: basePlay.stalls.length, stalledMs: basePlay.stalledMs, played: basePlay.played },
      fast: { firstFrameMs: fast.firstFrameMs, toTopS },
      storage: { playlistBytes, proxyBytes, share: storageShare },
    });
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
