// A source no browser plays (ProRes MOV) shows a picture in the admin and portal players once
// its review proxy is ready: videoWidth > 0, time advances, seeking works, the quality menu
// offers the proxy and hovering the seek bar shows a frame from the sprite. Before that, the
// card says "Preparing preview... N%", and a failure shows the reason with Retry.
import fs from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { test, expect, signInStaff, ADMIN } from './fixtures.ts';
import { startServer } from '../helpers/server.ts';
import { adminSession } from '../helpers/accounts.ts';
import { upload } from '../helpers/media-uploads.ts';
import { createClientWithPortalLogin, type ClientLogin } from '../helpers/portal-fixtures.ts';
import { source } from '../helpers/video-sources.ts';
import type { Session } from '../helpers/http.ts';

async function uploadProRes(s: Session, title: string, fields: Record<string, string> = {}) {
  const file = source('ProRes 422 HQ MOV with PCM audio');
  const r = await upload(s, { title, ...fields }, { data: fs.readFileSync(file), name: 'master.mov' });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body.playbackUrl).toBeNull();
  return r.body as { id: number };
}

async function waitReady(s: Session, id: number) {
  await expect
    .poll(async () => (await s.json('GET', `/api/media/${id}/processing`)).body.processingStatus, { timeout: 90_000, intervals: [250] })
    .toBe('ready');
}

/** The picture is there and moves; seeking lands. */
async function expectPicture(video: Locator) {
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 20_000 }).toBeGreaterThan(0);
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  const t0 = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(t0);
  await video.evaluate((v: HTMLVideoElement) => {
    v.pause();
    v.currentTime = 1.5;
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => (v.seeking ? -1 : v.currentTime))).toBeCloseTo(1.5, 1);
  expect(await video.evaluate((v: HTMLVideoElement) => new URL(v.currentSrc).pathname)).toMatch(/\/720p\.mp4$/);
}

async function expectSpriteOnHover(page: Page) {
  const seek = page.getByTestId('review-seek');
  await expect(page.getByTestId('quality-menu')).toBeVisible();
  await expect(page.getByTestId('quality-menu').locator('option')).toHaveText(['Auto', '180p']);
  const box = (await seek.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
  const preview = page.getByTestId('seek-preview');
  await expect(preview).toBeVisible();
  await expect(preview.locator('div').first()).toHaveAttribute('style', /sprite\.jpg\?v=\d+/);
}

async function signInClient(page: Page, login: ClientLogin) {
  await page.goto('/client/login');
  await page.locator('astro-island:not([ssr]) form[aria-label="Client sign-in"]').waitFor();
  await page.getByLabel('Username').fill(login.username);
  await page.getByLabel('Password', { exact: true }).fill(login.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/client\/dashboard$/);
}

test('a ProRes master plays in the admin and portal players once its proxy is ready', async ({ page, server }) => {
  test.setTimeout(180_000);
  const admin = await adminSession(server.url);
  const client = await createClientWithPortalLogin(server, 'Review Client');
  const item = await uploadProRes(admin, 'ProRes master', { clientId: String(client.clientId) });
  await waitReady(admin, item.id);

  await signInStaff(page);
  await page.waitForURL(/\/admin\//);
  await page.goto('/admin/media');
  await page.getByRole('button', { name: 'Open ProRes master' }).click();
  const adminVideo = page.getByTestId('detail-video');
  await expectPicture(adminVideo);
  await expectSpriteOnHover(page);

  await page.context().clearCookies();
  await signInClient(page, client);
  await page.getByRole('button', { name: /Open.*ProRes master/ }).click();
  const portalVideo = page.getByTestId('portal-video');
  await expectPicture(portalVideo);
  await expectSpriteOnHover(page);
});

test('not ready: the card shows Preparing preview with progress; failed: the reason and Retry', async ({ page }) => {
  test.setTimeout(120_000);
  // Its own server with the worker off, so the item stays where the test puts it.
  const server = await startServer({ env: { WORKER: 'off' } });
  try {
    const admin = await adminSession(server.url);
    const item = await uploadProRes(admin, 'Waiting master');
    await page.goto(`${server.url}/auth`);
    await page.locator('astro-island[component-url*="StaffLogin"]:not([ssr])').waitFor({ state: 'attached' });
    await page.getByLabel('Username or Email').fill(ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(/\/admin\//);
    await page.goto(`${server.url}/admin/media`);
    const card = page.locator(`[data-testid="media-card"][data-media-id="${item.id}"]`);
    await expect(card.getByTestId('processing-state')).toHaveText(/Preparing preview\.\.\. 0%/);
    await server.sql.execute({ sql: "UPDATE media SET processing_status = 'processing', processing_progress = 42 WHERE id = ?", args: [item.id] });
    await expect(card.getByTestId('processing-state')).toHaveText(/Preparing preview\.\.\. 42%/, { timeout: 15_000 });

    await server.sql.execute({ sql: "UPDATE media SET processing_status = 'failed', processing_error = 'ffmpeg failed (exit 1): Invalid data' WHERE id = ?", args: [item.id] });
    await page.reload();
    await page.getByRole('button', { name: 'Open Waiting master' }).click();
    const failed = page.getByRole('dialog').getByTestId('processing-failed');
    await expect(failed).toContainText('ffmpeg failed (exit 1): Invalid data');
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('dialog').getByTestId('processing-state')).toHaveText(/Preparing preview\.\.\. 0%/);
    const row = await server.sql.execute({ sql: 'SELECT processing_status FROM media WHERE id = ?', args: [item.id] });
    expect(row.rows[0]!.processing_status).toBe('queued');
  } finally {
    await server.stop();
  }
});
