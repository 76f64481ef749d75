// Adaptive streaming in the review players (issue 33), in Chromium with DevTools network
// conditions: the admin player streams the version's HLS ladder through hls.js, drops to the
// small size when the link is throttled and climbs back when it is lifted, without stopping;
// the quality menu still pins a size; a share link streams the same way under its own address.
// A public watch page of the same film plays the progressive MP4 and never loads hls.js.
import fs from 'node:fs';
import type { CDPSession, Locator, Page } from '@playwright/test';
import { test, expect, signInStaff } from './fixtures.ts';
import { ffmpegFixture } from '../helpers/fixture-cache.ts';
import { parseMaster } from '../helpers/hls.ts';

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1280, height: 900 } });

const SECONDS = 80;
const TITLE = 'Ladder Film';

/** A 1280x720 film with moving grain (so the sizes differ a lot in bit rate), as MPEG-4 Part 2: converted into 720p and 360p. */
function grainyFilm(): string {
  return ffmpegFixture([
    '-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=25:duration=${SECONDS}`,
    '-f', 'lavfi', '-i', `sine=frequency=330:duration=${SECONDS}`,
    '-vf', 'noise=alls=5:allf=t', '-c:v', 'mpeg4', '-q:v', '4', '-c:a', 'pcm_s16le',
  ], 'avi');
}

let filmId = 0;
let slug = '';

async function ensureFilm(page: Page, serverUrl: string) {
  if (filmId) return;
  const res = await page.request.post('/api/media', {
    headers: { Origin: serverUrl },
    multipart: { title: TITLE, isFeatured: 'false', showInPortfolio: 'true', file: { name: 'ladder.avi', mimeType: 'video/x-msvideo', buffer: fs.readFileSync(grainyFilm()) } },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = await res.json();
  filmId = body.id;
  slug = body.slug;
  await expect
    .poll(async () => (await (await page.request.get(`/api/media/${filmId}/processing`)).json()).processingStatus, { timeout: 150_000 })
    .toBe('ready');
}

/** Bits per second of each size, from the master playlist (BANDWIDTH is the peak segment rate). */
async function ladder(page: Page, streamUrl: string) {
  const entries = parseMaster(await (await page.request.get(streamUrl)).text());
  const by = (h: number) => entries.find((e) => e.resolution[1] === h)!.bandwidth;
  return { high: by(720), low: by(360) };
}

async function throttle(cdp: CDPSession, bitsPerSecond: number | null) {
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: bitsPerSecond ? 40 : 0,
    downloadThroughput: bitsPerSecond ? bitsPerSecond / 8 : -1,
    uploadThroughput: bitsPerSecond ? bitsPerSecond / 8 : -1,
  });
}

/** Playing state, size shown and time, with stalls and errors counted since `watch` was called. */
const state = (video: Locator) =>
  video.evaluate((v: HTMLVideoElement) => {
    const w = v as HTMLVideoElement & { __events?: Record<string, number> };
    return { height: v.videoHeight, t: v.currentTime, paused: v.paused, ended: v.ended, events: { ...(w.__events ?? {}) } };
  });

async function watch(video: Locator) {
  await video.evaluate((v: HTMLVideoElement) => {
    const w = v as HTMLVideoElement & { __events?: Record<string, number> };
    w.__events = {};
    for (const name of ['error', 'emptied', 'waiting', 'ended']) v.addEventListener(name, () => (w.__events![name] = (w.__events![name] ?? 0) + 1));
  });
}

async function play(video: Locator) {
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThan(0);
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
}

/** Waits until the picture is `height` tall, asserting playback went on meanwhile. */
async function expectSize(video: Locator, height: number, timeout = 30_000) {
  await expect.poll(async () => (await state(video)).height, { timeout, intervals: [250] }).toBe(height);
  // Still playing at that size: time moves on, nothing was torn down.
  const at = await state(video);
  await expect.poll(async () => (await state(video)).t, { timeout: 10_000 }).toBeGreaterThan(at.t + 0.3);
  const after = await state(video);
  expect([after.paused, after.ended]).toEqual([false, false]);
  expect(after.events.error ?? 0).toBe(0);
  expect(after.events.emptied ?? 0).toBe(0);
}

test('the admin player streams the ladder: down under a throttled link, back up when it is lifted, without stopping; a pinned size holds', async ({ page, server }) => {
  test.setTimeout(300_000);
  await signInStaff(page);
  await page.waitForURL(/\/admin\//);
  await ensureFilm(page, server.url);
  const hlsRequests: string[] = [];
  page.on('request', (r) => {
    if (/hls\.light\.[\w-]+\.js/.test(r.url())) hlsRequests.push(r.url());
  });
  await page.goto('/admin/media');
  await page.getByRole('button', { name: `Open ${TITLE}` }).click();
  const video = page.getByTestId('detail-video');
  await expect(video).toHaveAttribute('data-stream', 'hls');
  // hls.js's light build was fetched for this player, once.
  await expect.poll(() => hlsRequests.length).toBe(1);
  // The element plays a MediaSource, not one of the files.
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentSrc)).toMatch(/^blob:/);

  const streamUrl = (await (await page.request.get(`/api/media/${filmId}/processing`)).json()).streamUrl as string;
  const { high, low } = await ladder(page, streamUrl);
  expect(high).toBeGreaterThan(low * 2);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');

  await watch(video);
  await play(video);
  // A fast link and a player taller than 360 px: Auto climbs to 720p.
  await expectSize(video, 720);
  await expect(page.getByTestId('quality-menu').locator('option').first()).toHaveText('Auto (720p)');

  // Throttled under what 720p needs (hls.js moves up only with 1/0.7 of a size's rate) and well
  // over 360p's: Auto decides to go down (it asks for 360p bytes). The link is lifted then, and
  // the picture goes down to 360p (once what was buffered at 720p has played) and back up to
  // 720p as the measured bandwidth recovers, playing all along.
  const asked360: string[] = [];
  page.on('request', (r) => {
    if (/\/360p\.mp4/.test(r.url())) asked360.push(r.url());
  });
  await throttle(cdp, Math.round(Math.min(high / 0.7 / 2, Math.max(low * 3, high / 2))));
  await expect.poll(() => asked360.length, { timeout: 45_000 }).toBeGreaterThan(0);
  await throttle(cdp, null);
  await expectSize(video, 360, 45_000);
  await expect(page.getByTestId('quality-menu').locator('option').first()).toHaveText('Auto (360p)');
  await expectSize(video, 720, 60_000);

  // A pinned size holds whatever the link does: 360p on a fast link. hls.js chooses a size for
  // each fragment it loads, so once the picture is 360p the next three fragment loads are
  // three chances for Auto to climb: all must be 360p, none 720p.
  const loaded: string[] = [];
  const onFragment = (r: import('@playwright/test').Request) => {
    if (/\/(360|720)p\.mp4/.test(r.url())) loaded.push(r.url());
  };
  page.on('request', onFragment);
  // Back near the start first: the film is 80 s, and on a busy machine the steps above can leave
  // it a fragment or two from its end (CI, 26 Nov: only 2 loads followed the pin). Pinning
  // flushes the buffer, so the pinned size then loads its fragments from here on.
  await video.evaluate((v: HTMLVideoElement) => {
    v.currentTime = 1;
    return v.play();
  });
  await page.getByTestId('quality-menu').selectOption('360p');
  await expectSize(video, 360);
  const pinnedFrom = loaded.length;
  await expect.poll(() => loaded.slice(pinnedFrom).length, { timeout: 45_000 }).toBeGreaterThanOrEqual(3);
  page.off('request', onFragment);
  expect(loaded.slice(pinnedFrom).filter((u) => !/\/360p\.mp4/.test(u))).toEqual([]);
  expect((await state(video)).height).toBe(360);
  await expect(video).toHaveAttribute('data-stream', 'hls');
  // Auto again climbs back.
  await page.getByTestId('quality-menu').selectOption('auto');
  await expectSize(video, 720, 45_000);
  await cdp.detach();
});

test('a share link streams the same ladder under its own address', async ({ page, server }) => {
  test.setTimeout(240_000);
  await signInStaff(page);
  await page.waitForURL(/\/admin\//);
  await ensureFilm(page, server.url);
  const made = await page.request.post('/api/share-links', { headers: { Origin: server.url }, data: { name: 'Agency cut', mediaIds: [filmId], download: 'none' } });
  expect(made.status()).toBe(201);
  const url = new URL((await made.json()).url);
  await page.context().clearCookies();
  const segments: string[] = [];
  page.on('request', (r) => {
    if (/\.(m3u8|mp4)(\?|$)/.test(r.url())) segments.push(new URL(r.url()).pathname);
  });
  await page.goto(url.pathname);
  const video = page.getByTestId('share-video');
  await expect(video).toHaveAttribute('data-stream', 'hls');
  await watch(video);
  await play(video);
  await expectSize(video, 720);
  // Every playlist and byte range was fetched through the link, never from /media/.
  expect(segments.length).toBeGreaterThan(2);
  expect(segments.filter((p) => !p.startsWith(`${url.pathname}/m/${filmId}/`))).toEqual([]);
  await page.getByTestId('quality-menu').selectOption('360p');
  await expectSize(video, 360);
});

test('the public watch page plays the progressive MP4 and loads no streaming library', async ({ page, server }) => {
  test.setTimeout(240_000);
  await signInStaff(page);
  await page.waitForURL(/\/admin\//);
  await ensureFilm(page, server.url);
  await page.context().clearCookies();
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  await page.goto(`/portfolio/${slug}`);
  await page.locator('astro-island[component-url*="WatchPlayer"]:not([ssr])').waitFor({ state: 'attached' });
  const video = page.getByTestId('watch-video');
  await play(video);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0.2);
  expect(new URL(await video.evaluate((v: HTMLVideoElement) => v.currentSrc)).pathname).toMatch(/\/720p\.mp4$/);
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((s) => /hls/i.test(s))).toEqual([]);
});
