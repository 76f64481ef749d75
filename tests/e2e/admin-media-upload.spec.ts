import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, ADMIN } from './fixtures.ts';
import { count, makeImage, makeLargeFile, makeVideo, signInAs, tempDir } from './admin-helpers.ts';
import { openConnectionsFromOthers } from '../helpers/sockets.ts';

let dir: string;
test.beforeAll(() => {
  dir = tempDir();
});
test.afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
test.afterEach(({ server }, info) => {
  if (info.status !== info.expectedStatus) console.log('SERVER_OUTPUT', server.output().slice(-4000), 'EXIT', server.proc.exitCode, server.proc.signalCode);
});

/** Records every value the progress bar shows (it disappears once the dialog closes). */
async function recordProgress(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __progress: number[]; __bytes: string[] };
    w.__progress = [];
    w.__bytes = [];
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"][aria-label="Upload progress"]');
      if (!bar) return;
      const v = Number(bar.getAttribute('aria-valuenow'));
      if (w.__progress.at(-1) !== v) w.__progress.push(v);
      const text = bar.parentElement?.textContent ?? '';
      if (w.__bytes.at(-1) !== text) w.__bytes.push(text);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  return () =>
    page.evaluate(() => {
      const w = window as unknown as { __progress: number[]; __bytes: string[] };
      return { __progress: [...w.__progress], __bytes: [...w.__bytes] };
    });
}

async function openUpload(page: Page) {
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  await page.getByRole('button', { name: 'Upload Media' }).click();
  return page.getByRole('dialog', { name: 'Upload New Media' });
}

test.describe('upload dialog', () => {
  test('uploads an image with its fields; the progress bar reaches 100 %', async ({ page, server }) => {
    const file = await makeImage(dir, 'sunset-shoot.jpg', 1600);
    const dialog = await openUpload(page);
    await dialog.getByLabel('File').setInputFiles(file);
    await expect(dialog.getByLabel('Title')).toHaveValue('sunset shoot');
    await dialog.getByLabel('Title').fill('Sunset Shoot');
    await dialog.getByLabel('Project Stage').selectOption('post-production');
    await dialog.getByLabel('Notes').fill('Colour grade approved');
    await dialog.getByLabel('Tags').fill('sunset, golden hour');
    await dialog.getByRole('switch', { name: /Featured/ }).check();
    const progress = await recordProgress(page);
    const posted = page.waitForResponse((r) => r.url().endsWith('/api/media') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    expect((await posted).status()).toBe(201);
    await expect(page.getByTestId('toast')).toContainText('Media uploaded');
    await expect(dialog).toBeHidden();
    const seen = await progress();
    expect(seen.__progress.at(-1)).toBe(100);
    expect([...seen.__progress].sort((a, b) => a - b)).toEqual(seen.__progress);
    expect(seen.__bytes.join('\n')).toMatch(/100%.*of/);
    const card = page.getByTestId('media-card').filter({ hasText: 'Sunset Shoot' });
    await expect(card).toBeVisible();
    await expect(card).toContainText('Featured');
    await expect(card.getByTestId('card-stage')).toHaveText('Post-production');
    await expect(card.getByTestId('card-tags')).toContainText('golden hour');
    const row = (await server.sql.execute("SELECT type, is_featured, show_in_portfolio, project_stage, tags, notes FROM media WHERE title = 'Sunset Shoot'")).rows[0]!;
    expect(row).toMatchObject({ type: 'image', is_featured: 1, show_in_portfolio: 0, project_stage: 'post-production', notes: 'Colour grade approved' });
    expect(JSON.parse(String(row.tags))).toEqual(['sunset', 'golden hour']);
  });

  test('uploads a short video; the card previews the video', async ({ page, server }) => {
    const file = makeVideo(dir, 'teaser.mp4', 3);
    const dialog = await openUpload(page);
    await dialog.getByLabel('File').setInputFiles(file);
    await dialog.getByLabel('Poster image (optional)').setInputFiles(await makeImage(dir, 'poster.jpg', 640));
    await dialog.getByLabel('Title').fill('Teaser Cut');
    await dialog.getByLabel('Project Stage').selectOption('production');
    const progress = await recordProgress(page);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(page.getByTestId('toast')).toContainText('Media uploaded', { timeout: 30_000 });
    expect((await progress()).__progress.at(-1)).toBe(100);
    const card = page.getByTestId('media-card').filter({ hasText: 'Teaser Cut' });
    await expect(card.getByTestId('card-video')).toBeAttached();
    await expect(card.getByTestId('card-stage')).toHaveText('Production');
    expect(await count(server, "SELECT COUNT(*) FROM media WHERE title = 'Teaser Cut' AND type = 'video' AND poster_url IS NOT NULL")).toBe(1);
    const poster = String((await server.sql.execute("SELECT poster_url FROM media WHERE title = 'Teaser Cut'")).rows[0]!.poster_url);
    await expect(card.getByTestId('card-video')).toHaveAttribute('poster', poster);
  });

  test('Cancel aborts an upload midway and nothing is created', async ({ page, server }) => {
    const file = makeLargeFile(dir, 24, 'huge-still.jpg');
    const dialog = await openUpload(page);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    // About 1 MB/s up: a 24 MB file takes long enough to cancel halfway.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 1024 * 1024 });
    const before = await count(server, 'SELECT COUNT(*) FROM media');
    await dialog.getByLabel('File').setInputFiles(file);
    await dialog.getByLabel('Title').fill('Never Saved');
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    const bar = dialog.getByRole('progressbar', { name: 'Upload progress' });
    await expect(bar).toBeVisible();
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 20_000 }).toBeGreaterThan(5);
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(100);
    await expect(dialog.getByText(/MB of 24\.0 MB|MB of 24 MB/)).toBeVisible();
    // Cancel ends the PATCH and terminates the upload; tus takes the upload's lock for the
    // DELETE, so its answer comes once the server is done with the aborted PATCH too.
    const terminated = page.waitForResponse((r) => r.request().method() === 'DELETE' && /\/api\/uploads\/[a-f0-9]{32}$/.test(r.url()), { timeout: 15_000 });
    await dialog.getByRole('button', { name: 'Cancel Upload' }).click();
    await expect(page.getByTestId('toast')).toContainText('Upload cancelled');
    await expect(bar).toBeHidden();
    expect((await terminated).status()).toBe(204);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    // The aborted request must not take the server down.
    const alive = await page.request.get('/api/stats').catch((e: Error) => e);
    expect(alive instanceof Error ? `${alive.message}\n${server.output().slice(-3000)}` : alive.status()).toBe(200);
    expect(await count(server, 'SELECT COUNT(*) FROM media')).toBe(before);
    expect(await count(server, "SELECT COUNT(*) FROM media WHERE title = 'Never Saved'")).toBe(0);
    // Nor may the browser dropping the connection afterwards.
    expect(openConnectionsFromOthers(server.port)).toBeGreaterThan(0);
    await page.context().close();
    // The server has closed every connection the browser had.
    await expect.poll(() => openConnectionsFromOthers(server.port), { timeout: 15_000 }).toBe(0);
    const later = await fetch(`${server.url}/api/stats`).catch((e: Error) => e);
    expect(later instanceof Error ? `${later.message}\n${server.output().slice(-3000)}` : later.status).toBe(401);
  });

  test('validation: no file, no title and a wrong type are caught before sending', async ({ page, server }) => {
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && r.url().endsWith('/api/media') && posts.push(r.url()));
    const dialog = await openUpload(page);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(page.getByTestId('toast')).toContainText('No file selected');
    await expect(page.getByTestId('toast')).toContainText('Please select a file to upload.');
    await expect(dialog.getByText('Please select a file', { exact: true })).toBeVisible();
    await expect(dialog.getByText('Title is required')).toBeVisible();

    const text = path.join(dir, 'notes.txt');
    fs.writeFileSync(text, 'not media');
    await dialog.getByLabel('File').setInputFiles(text);
    await dialog.getByLabel('Title').fill('Wrong type');
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(dialog.getByText(/Unsupported file type/)).toBeVisible();

    await dialog.getByLabel('File').setInputFiles(await makeImage(dir, 'ok.jpg'));
    await dialog.getByLabel('Title').fill('   ');
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(dialog.getByText('Title is required')).toBeVisible();
    expect(posts).toEqual([]);
    expect(await count(server, "SELECT COUNT(*) FROM media WHERE title = 'Wrong type'")).toBe(0);
  });

  // Issue 19 #14: messages clear as soon as the field is valid; a refused file names nothing.
  test('a refused file leaves the title empty; the title message clears once the title auto-fills', async ({ page }) => {
    const dialog = await openUpload(page);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(dialog.getByText('Title is required')).toBeVisible();
    const text = path.join(dir, 'holiday-notes.txt');
    fs.writeFileSync(text, 'not media');
    await dialog.getByLabel('File').setInputFiles(text);
    await expect(dialog.getByText(/Unsupported file type/)).toBeVisible();
    await expect(dialog.getByLabel('Title')).toHaveValue('');
    await expect(dialog.getByText('Title is required')).toBeVisible();
    await dialog.getByLabel('File').setInputFiles(await makeImage(dir, 'harbour-dawn.jpg'));
    await expect(dialog.getByLabel('Title')).toHaveValue('harbour dawn');
    await expect(dialog.getByText('Title is required')).toBeHidden();
    await expect(dialog.getByText(/Unsupported file type/)).toBeHidden();
    await dialog.getByLabel('Title').fill('');
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(dialog.getByText('Title is required')).toBeVisible();
    await dialog.getByLabel('Title').pressSequentially('H');
    await expect(dialog.getByText('Title is required')).toBeHidden();
  });

  test('a file over 2500MB is refused before sending', async ({ page }) => {
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && r.url().endsWith('/api/media') && posts.push(r.url()));
    // A sparse file: 2501 MB on paper, nothing on disk.
    const big = path.join(dir, 'too-big.mp4');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, 2501 * 1024 * 1024);
    const dialog = await openUpload(page);
    await dialog.getByLabel('File').setInputFiles(big);
    await expect(dialog.getByText('File is too large (maximum 2500MB)')).toBeVisible();
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(dialog.getByText('File is too large (maximum 2500MB)')).toBeVisible();
    await expect(dialog.getByRole('progressbar')).toHaveCount(0);
    expect(posts).toEqual([]);
  });

  test('?upload=true opens the dialog and the URL is reset to /admin/media', async ({ page }) => {
    await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media?upload=true');
    await expect(page.getByRole('dialog', { name: 'Upload New Media' })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/media$/);
  });

  test('the dashboard counts follow an upload made through the dialog', async ({ page, server }) => {
    const dialog = await openUpload(page);
    await dialog.getByLabel('File').setInputFiles(await makeImage(dir, 'dash.jpg'));
    await dialog.getByLabel('Title').fill('Dashboard Count');
    await dialog.getByRole('switch', { name: /Featured/ }).check();
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(page.getByTestId('toast')).toContainText('Media uploaded');
    await page.goto('/admin/dashboard');
    await expect(page.getByTestId('stat-total-media')).toHaveText(String(await count(server, 'SELECT COUNT(*) FROM media')));
    await expect(page.getByTestId('stat-featured-media')).toHaveText(String(await count(server, 'SELECT COUNT(*) FROM media WHERE is_featured = 1')));
    await expect(page.getByTestId('recent-media')).toContainText('Dashboard Count');
  });
});
