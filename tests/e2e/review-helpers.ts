// The review players' test clip and moves, shared by the browser tests of issues 29 and 30
// (exact-frame-notes, editor-keys): a 6 s clip made by ffmpeg at 25 fps (one frame is 40 ms),
// uploaded and converted, and the video element paused and seeked as the native controls would.
import fs from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures.ts';
import { islandsReady } from './admin-helpers.ts';
import { ffmpegFixture } from '../helpers/fixture-cache.ts';
import type { ClientLogin } from '../helpers/portal-fixtures.ts';
import type { TestServer } from '../helpers/server.ts';

export const FPS = 25;
export const FRAME = 1 / FPS;
export const SECONDS = 6;

/** The 25 fps clip of `size` (tests/helpers/fixture-cache.ts). */
function clip25(size: string): string {
  return ffmpegFixture(['-f', 'lavfi', '-i', `testsrc=size=${size}:rate=${FPS}:duration=${SECONDS}`, '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25'], 'mp4');
}

/**
 * Uploads the 25 fps clip (assigned to a client when given) and waits until it is converted.
 * `size` makes it another shape (a portrait clip letterboxed in a wide player).
 */
export async function uploadClip(page: Page, server: TestServer, title: string, clientId?: number, size = '320x180'): Promise<number> {
  const res = await page.request.post('/api/media', {
    headers: { Origin: server.url },
    multipart: { title, ...(clientId ? { clientId: String(clientId) } : {}), isFeatured: 'false', showInPortfolio: 'false', file: { name: 'frames-25.mp4', mimeType: 'video/mp4', buffer: fs.readFileSync(clip25(size)) } },
  });
  expect(res.status()).toBe(201);
  const id = (await res.json()).id as number;
  await expect
    .poll(async () => (await (await page.request.get(`/api/media/${id}/processing`)).json()).processingStatus, { timeout: 60_000 })
    .toBe('ready');
  return id;
}

export async function signInClient(page: Page, login: ClientLogin) {
  const res = await page.request.post('/api/client/login', { data: { username: login.username, password: login.password } });
  expect(res.status()).toBe(200);
  await page.goto('/client/dashboard');
  await islandsReady(page);
}

export const currentTime = (player: Locator) => player.evaluate((v: HTMLVideoElement) => v.currentTime);

/** Pauses and seeks the element directly (as the native controls would), waiting for the seek. */
export async function pauseAt(player: Locator, seconds: number) {
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThan(0);
  await player.evaluate(
    (v: HTMLVideoElement, t) =>
      new Promise<void>((resolve) => {
        v.pause();
        v.addEventListener('seeked', () => resolve(), { once: true });
        v.currentTime = t;
      }),
    seconds,
  );
}
