// Every player on a phone (issue 53): at 320, 375 and 414 px wide and on a phone held sideways,
// the portal's and the admin dialog's players, the share page's, the watch page's and compare
// keep a seek bar at least 120 px wide and every control of the transport inside the screen,
// and a drag along the seek bar moves the video there. The watch page uses the browser's own
// controls under 768 px (decisions: the public film player), whose seek bar spans the video.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { test, expect, ADMIN, oncePerServer } from './fixtures.ts';
import { islandsReady, tempDir } from './admin-helpers.ts';
import { createClientWithPortalLogin, type ClientLogin } from '../helpers/portal-fixtures.ts';
import { staffSession } from '../helpers/http.ts';
import { createUpload, patchUpload } from '../helpers/tus.ts';

const TITLE = 'Pocket Cut';
const MIN_SEEK_PX = 120;

function clip(dir: string, name: string, pattern: string): Uint8Array<ArrayBuffer> {
  const file = path.join(dir, name);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `${pattern}=size=320x180:rate=25:duration=6`, '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', file]);
  return new Uint8Array(fs.readFileSync(file));
}

let login: ClientLogin;
let mediaId: number;
let slug: string;
let sharePath: string;
const setUp = oncePerServer(async (server) => {
  login = await createClientWithPortalLogin(server, 'Pocket Co');
  const staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const dir = tempDir();
  try {
    const form = new FormData();
    for (const [k, v] of Object.entries({ title: TITLE, clientId: String(login.clientId), isFeatured: 'false', showInPortfolio: 'true' })) form.set(k, v);
    form.set('file', new Blob([clip(dir, 'v1.mp4', 'testsrc')], { type: 'video/mp4' }), 'v1.mp4');
    const created = await staff.json('POST', '/api/media', form);
    expect(created.status).toBe(201);
    mediaId = created.body.id;
    const v2 = clip(dir, 'v2.mp4', 'testsrc2');
    const up = await createUpload(staff, v2.length, { filename: 'v2.mp4' });
    expect((await patchUpload(staff, up.id!, 0, v2)).status).toBe(204);
    expect((await staff.json('POST', `/api/media/${mediaId}/versions`, { uploadId: up.id })).status).toBe(201);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  await expect
    .poll(async () => ((await staff.json('GET', `/api/media/${mediaId}/versions`)).body as { processingStatus: string }[]).map((v) => v.processingStatus).join(' '), { timeout: 90_000 })
    .toBe('ready ready');
  const link = await staff.json('POST', '/api/share-links', { name: 'Pocket link', mediaIds: [mediaId] });
  expect(link.status).toBe(201);
  sharePath = new URL(link.body.url).pathname;
  slug = String((await server.sql.execute({ sql: 'SELECT slug FROM media WHERE id = ?', args: [mediaId] })).rows[0]!.slug);
});

async function signIn(page: Page, kind: 'staff' | 'client') {
  const res = kind === 'staff' ? await page.request.post('/api/login', { data: { username: ADMIN.username, password: ADMIN.password } }) : await page.request.post('/api/client/login', { data: { username: login.username, password: login.password } });
  expect(res.status()).toBe(200);
}

interface Player {
  /** The seek bar (null: the browser's own controls, on the video). */
  seek: Locator | null;
  /** The transport whose every control must be on screen. */
  controls: Locator;
  video: Locator;
}

const PLAYERS: Record<string, (page: Page) => Promise<Player>> = {
  portal: async (page) => {
    await signIn(page, 'client');
    await page.goto(`/client/dashboard?item=${mediaId}`);
    const dialog = page.getByRole('dialog', { name: TITLE });
    return { seek: dialog.getByTestId('review-seek'), controls: dialog.getByTestId('review-transport'), video: dialog.getByTestId('portal-video') };
  },
  'share page': async (page) => {
    await page.goto(sharePath);
    return { seek: page.getByTestId('review-seek'), controls: page.getByTestId('review-transport'), video: page.locator('video') };
  },
  'admin dialog': async (page) => {
    await signIn(page, 'staff');
    await page.goto(`/admin/media?item=${mediaId}`);
    const dialog = page.getByRole('dialog', { name: TITLE });
    return { seek: dialog.getByTestId('review-seek'), controls: dialog.getByTestId('review-transport'), video: dialog.locator('video') };
  },
  'watch page': async (page) => {
    await page.goto(`/portfolio/${slug}`);
    const native = await page.evaluate(() => matchMedia('(max-width: 767px)').matches);
    const video = page.getByTestId('watch-video');
    return native ? { seek: null, controls: video, video } : { seek: page.getByLabel('Seek', { exact: true }), controls: page.getByTestId('player-controls'), video };
  },
  compare: async (page) => {
    await signIn(page, 'staff');
    await page.goto(`/admin/media?item=${mediaId}&compare=1,2`);
    const dialog = page.getByRole('dialog', { name: `Compare versions: ${TITLE}` });
    return { seek: dialog.getByTestId('compare-seek'), controls: dialog.getByTestId('compare-transport'), video: dialog.getByTestId('compare-left') };
  },
};

const SCREENS = [
  { name: '320 px', width: 320, height: 640 },
  { name: '375 px', width: 375, height: 667 },
  { name: '414 px', width: 414, height: 896 },
  { name: 'sideways', width: 667, height: 375 },
];

/**
 * The transport and every button, field and slider in it that is not wholly usable: out of the
 * screen, squeezed under 8 px, or cut off or covered (what is at its middle is not itself).
 */
function unusable(controls: Locator) {
  return controls.evaluate((root) => {
    const all = [root, ...root.querySelectorAll('button, select, input')];
    return all
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ el, r }) => {
        if (r.width === 0 && r.height === 0) return false; // not shown at this size (the volume slider)
        if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5 || r.width < 8) return true;
        if (el === root) return false;
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !hit || !el.contains(hit);
      })
      .map(({ el, r }) => `${el.getAttribute('aria-label') ?? el.tagName} at ${Math.round(r.left)}..${Math.round(r.right)} x ${Math.round(r.top)}..${Math.round(r.bottom)} in ${innerWidth}x${innerHeight}`);
  });
}

for (const screen of SCREENS) {
  test.describe(`players at ${screen.name}`, () => {
    test.use({ viewport: { width: screen.width, height: screen.height } });
    for (const [name, open] of Object.entries(PLAYERS)) {
      test(`${name}: the seek bar is at least ${MIN_SEEK_PX} px wide, every control on screen, and a drag seeks`, async ({ page, server }) => {
        test.setTimeout(120_000);
        await setUp({ server });
        const player = await open(page);
        await islandsReady(page);
        await expect(player.video).toBeVisible();
        await expect.poll(() => player.video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThan(0);
        await player.controls.scrollIntoViewIfNeeded();
        expect(await unusable(player.controls)).toEqual([]);
        if (!player.seek) {
          expect(await player.video.evaluate((v: HTMLVideoElement) => v.controls)).toBe(true);
          expect((await player.video.boundingBox())!.width).toBeGreaterThanOrEqual(MIN_SEEK_PX);
          return;
        }
        const box = (await player.seek.boundingBox())!;
        expect(box.width).toBeGreaterThanOrEqual(MIN_SEEK_PX);
        const duration = await player.video.evaluate((v: HTMLVideoElement) => v.duration);
        expect(duration).toBeGreaterThan(5);
        // Press near the start, drag to 70 %: the video follows.
        const y = box.y + box.height / 2;
        await page.mouse.move(box.x + box.width * 0.1, y);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width * 0.4, y, { steps: 4 });
        await page.mouse.move(box.x + box.width * 0.7, y, { steps: 4 });
        await page.mouse.up();
        await expect.poll(() => player.video.evaluate((v: HTMLVideoElement) => v.currentTime / v.duration)).toBeGreaterThan(0.55);
        expect(await player.video.evaluate((v: HTMLVideoElement) => v.currentTime / v.duration)).toBeLessThan(0.85);
      });
    }
  });
}
