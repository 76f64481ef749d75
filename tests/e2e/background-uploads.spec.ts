// Uploads in the background (issue 32) in real Chromium against the real server: the dialog
// closes while files upload, the tray keeps them going across admin pages (client router), the
// list shows finished uploads without a reload, leaving asks first while uploads run, a reload
// mid-upload and choosing the same file restores its fields and continues from the server's
// offset (for several files, each one's title and the batch's shared fields), a new version of
// an item goes through the same queue and tray, files dropped on the page open the dialog, and
// the tray is axe-clean.
// Uploads are slowed by holding their PATCH requests (page.route), not by big files.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Page, Route } from '@playwright/test';
import { test, expect, ADMIN } from './fixtures.ts';
import { createClient, insertMedia, islandsReady, makeImage, makeVideo, signInAs, tempDir } from './admin-helpers.ts';
import { seriousViolations } from './public-helpers.ts';

const MB = 1024 * 1024;
let dir: string;
test.beforeAll(() => {
  dir = tempDir();
});
test.afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A real MP4 followed by a top-level 'free' box of random bytes: valid, and as large as we like. */
function paddedVideo(name: string, mb: number): string {
  const base = fs.readFileSync(makeVideo(dir, `base-${name}`, 1));
  const pad = mb * MB - base.length - 8;
  const header = Buffer.alloc(8);
  header.writeUInt32BE(pad + 8, 0);
  header.write('free', 4, 'latin1');
  const file = path.join(dir, name);
  fs.writeFileSync(file, Buffer.concat([base, header, randomBytes(pad)]));
  return file;
}

const isPatch = (r: Route) => r.request().method() === 'PATCH';

/** Delays every tus PATCH by `ms`, so uploads are still running while the test acts. */
async function slowPatches(page: Page, ms: number) {
  await page.route(/\/api\/uploads\/[a-f0-9]{32}$/, async (route) => {
    if (isPatch(route)) await new Promise((r) => setTimeout(r, ms));
    await route.continue();
  });
}

async function openUpload(page: Page) {
  await page.getByRole('button', { name: 'Upload Media' }).click();
  return page.getByRole('dialog', { name: 'Upload New Media' });
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Admin' });
const tray = (page: Page) => page.getByTestId('upload-tray');
const keptFieldKeys = (page: Page) => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('studio-upload-fields::')));

/**
 * Lets each upload's first PATCH (one 16 MiB chunk) through and holds the later ones until
 * the returned release is called, after which they fail: the server keeps the first chunk.
 */
async function holdAfterFirstChunk(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const patches = new Map<string, number>();
  await page.route(/\/api\/uploads\/[a-f0-9]{32}$/, async (route) => {
    const url = route.request().url();
    if (isPatch(route)) patches.set(url, (patches.get(url) ?? 0) + 1);
    if (isPatch(route) && patches.get(url)! > 1) {
      await released;
      return route.abort().catch(() => undefined);
    }
    await route.continue();
  });
  return release;
}

test('three files: the dialog closes, the tray carries them to Clients and back, they finish and the list shows them without a reload', async ({ page, server }) => {
  test.setTimeout(90_000);
  const files = [await makeImage(dir, 'bg-one.jpg'), await makeImage(dir, 'bg-two.jpg'), await makeImage(dir, 'bg-three.jpg')];
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  await slowPatches(page, 2500);
  // The client router runs the next page's scripts under the first page's policy.
  const cspReports: string[] = [];
  page.on('console', (m) => /Content Security Policy/i.test(m.text()) && cspReports.push(m.text()));
  // Survives only as long as the document does: a full page load would lose it.
  await page.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));

  const dialog = await openUpload(page);
  await dialog.getByLabel('File').setInputFiles(files);
  await dialog.getByLabel('Tags').fill('background');
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog.getByRole('progressbar', { name: 'Upload progress: bg-one.jpg' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Continue in background' }).click();
  await expect(dialog).toBeHidden();

  await expect(tray(page)).toContainText('Uploading 3 files');
  await nav(page).getByRole('link', { name: 'Clients' }).click();
  await expect(page).toHaveURL(/\/admin\/clients$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Client');
  // Still the same uploads, still running, on the Clients page.
  for (const name of ['bg-one.jpg', 'bg-two.jpg', 'bg-three.jpg']) await expect(tray(page).getByRole('progressbar', { name: `Upload progress: ${name}` })).toBeVisible();
  expect(await tray(page).locator('[data-testid="upload-item"]:not([data-phase="done"])').count()).toBeGreaterThan(0);

  // Every other admin page keeps the tray too, and runs its scripts under the router.
  for (const [name, url] of [['Dashboard', 'dashboard'], ['Share links', 'share-links'], ['Enquiries', 'enquiries'], ['Website', 'website-customization'], ['Roles', 'roles'], ['Users', 'users']]) {
    await nav(page).getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/${url}$`));
    await expect(tray(page).getByTestId('upload-item')).toHaveCount(3);
  }
  await nav(page).getByRole('link', { name: 'Media' }).click();
  await expect(page).toHaveURL(/\/admin\/media$/);
  await expect(tray(page)).toContainText('3 uploads finished', { timeout: 30_000 });
  await expect(tray(page).locator('[data-testid="upload-item"][data-phase="done"]')).toHaveCount(3);
  for (const title of ['bg one', 'bg two', 'bg three']) await expect(page.getByTestId('media-card').filter({ hasText: title })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
  expect(cspReports).toEqual([]);
  const rows = (await server.sql.execute("SELECT title, tags FROM media WHERE title LIKE 'bg %' ORDER BY title")).rows;
  expect(rows.map((r) => r.title)).toEqual(['bg one', 'bg three', 'bg two']);
  expect(rows.every((r) => JSON.parse(String(r.tags))[0] === 'background')).toBe(true);

  // Finished uploads can be cleared away; the tray then leaves the screen.
  await tray(page).getByRole('button', { name: 'Close uploads' }).click();
  await expect(tray(page)).toHaveCount(0);
});

test('leaving while an upload runs asks first (beforeunload); a reload, then choosing the same file, restores its fields and continues from the server\'s offset', async ({ page, server }) => {
  test.setTimeout(90_000);
  // Two 16 MiB chunks: the first reaches the server, the second is held in the browser.
  const file = paddedVideo('kept-fields.mp4', 20);
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  const release = await holdAfterFirstChunk(page);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.type());
    void d.accept();
  });

  const dialog = await openUpload(page);
  await dialog.getByLabel('File').setInputFiles(file);
  await dialog.getByLabel('Title').fill('Kept Title');
  await dialog.getByLabel('Notes').fill('Kept notes');
  await dialog.getByLabel('Tags').fill('kept, fields');
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', /^([5-9]\d)$/, { timeout: 30_000 });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(tray(page).getByTestId('upload-item')).toHaveAttribute('data-phase', 'uploading');

  await page.reload();
  expect(dialogs).toEqual(['beforeunload']);
  release();
  await islandsReady(page);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  const offsets: number[] = [];
  let creations = 0;
  page.on('request', (r) => {
    if (r.method() === 'PATCH' && /\/api\/uploads\/[a-f0-9]{32}$/.test(r.url())) offsets.push(Number(r.headers()['upload-offset']));
    if (r.method() === 'POST' && /\/api\/uploads$/.test(r.url())) creations++;
  });

  const again = await openUpload(page);
  await again.getByLabel('File').setInputFiles(file);
  await expect(again.getByTestId('upload-resume-note')).toContainText(/kept-fields\.mp4 was interrupted at 80%/);
  await expect(again.getByLabel('Title')).toHaveValue('Kept Title');
  await expect(again.getByLabel('Notes')).toHaveValue('Kept notes');
  await expect(again.getByLabel('Tags')).toHaveValue('kept, fields');
  await again.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByTestId('toast')).toContainText('Media uploaded', { timeout: 30_000 });
  expect(creations).toBe(0);
  expect(offsets[0]).toBe(16 * MB);
  const row = (await server.sql.execute("SELECT notes, tags, file_size FROM media WHERE title = 'Kept Title'")).rows[0]!;
  expect(row).toMatchObject({ notes: 'Kept notes', file_size: 20 * MB });
  expect(JSON.parse(String(row.tags))).toEqual(['kept', 'fields']);
  // The fields went with the finished upload.
  expect(await keptFieldKeys(page)).toEqual([]);

  // Nothing runs now: leaving does not ask.
  await page.goto('/admin/clients');
  await page.goto('/');
  expect(dialogs).toEqual(['beforeunload']);
});

test('several files interrupted by a reload: choosing them again brings back the batch\'s stage, client, notes, tags and both switches (unless something was typed first), and each file keeps its own title', async ({ page, server }) => {
  test.setTimeout(120_000);
  const files = [paddedVideo('batch-kept-one.mp4', 20), paddedVideo('batch-kept-two.mp4', 20)];
  // Issue 40: every shared field, each set away from its default, so dropping any one of them
  // from what a batch keeps fails here.
  const clientId = await createClient(server, 'Batch Kept Client');
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  const release = await holdAfterFirstChunk(page);
  page.on('dialog', (d) => void d.accept());

  const dialog = await openUpload(page);
  await dialog.getByLabel('File').setInputFiles(files);
  await dialog.getByLabel('Notes').fill('Shared batch notes');
  await dialog.getByLabel('Tags').fill('batch, kept');
  await dialog.getByLabel('Project Stage').selectOption('post-production');
  await dialog.getByLabel('Client').selectOption({ label: 'Batch Kept Client' });
  await dialog.getByRole('switch', { name: 'Featured' }).click();
  await dialog.getByRole('switch', { name: 'Show in Portfolio' }).click();
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  for (const name of ['batch-kept-one.mp4', 'batch-kept-two.mp4']) {
    await expect(dialog.getByRole('progressbar', { name: `Upload progress: ${name}` })).toHaveAttribute('aria-valuenow', /^([5-9]\d)$/, { timeout: 30_000 });
  }
  expect(await keptFieldKeys(page)).toHaveLength(2);
  await page.reload();
  release();
  await islandsReady(page);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  let creations = 0;
  page.on('request', (r) => r.method() === 'POST' && /\/api\/uploads$/.test(r.url()) && creations++);

  // Something typed before the files are chosen stays, and the kept fields do not mix in.
  let again = await openUpload(page);
  await again.getByLabel('Notes').fill('Typed first');
  await again.getByLabel('File').setInputFiles(files);
  await expect(again.getByTestId('upload-resume-note')).toHaveCount(2);
  await expect(again.getByLabel('Notes')).toHaveValue('Typed first');
  await expect(again.getByLabel('Tags')).toHaveValue('');
  await expect(again.getByRole('switch', { name: 'Featured' })).not.toBeChecked();
  await expect(again.getByRole('switch', { name: 'Show in Portfolio' })).not.toBeChecked();
  await expect(again.getByLabel('Project Stage')).toHaveValue('');
  await expect(again.getByLabel('Client')).toHaveValue('');
  await again.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(again).toBeHidden();

  again = await openUpload(page);
  await again.getByLabel('File').setInputFiles(files);
  await expect(again.getByTestId('upload-resume-note')).toHaveCount(2);
  await expect(again.getByLabel('Notes')).toHaveValue('Shared batch notes');
  await expect(again.getByLabel('Tags')).toHaveValue('batch, kept');
  await expect(again.getByRole('switch', { name: 'Featured' })).toBeChecked();
  await expect(again.getByRole('switch', { name: 'Show in Portfolio' })).toBeChecked();
  await expect(again.getByLabel('Project Stage')).toHaveValue('post-production');
  await expect(again.getByLabel('Client')).toHaveValue(String(clientId));
  await again.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(tray(page)).toContainText('2 uploads finished', { timeout: 30_000 });
  expect(creations).toBe(0);
  const rows = (
    await server.sql.execute("SELECT title, notes, tags, is_featured, show_in_portfolio, project_stage, client_id, file_size FROM media WHERE title LIKE 'batch kept %' ORDER BY title")
  ).rows;
  expect(rows.map((r) => r.title)).toEqual(['batch kept one', 'batch kept two']);
  for (const r of rows) {
    expect(r).toMatchObject({ notes: 'Shared batch notes', is_featured: 1, show_in_portfolio: 1, project_stage: 'post-production', client_id: clientId, file_size: 20 * MB });
    expect(JSON.parse(String(r.tags))).toEqual(['batch', 'kept']);
  }
  expect(await keptFieldKeys(page)).toEqual([]);
});

test('a new version uploads through the queue: Cancel Upload stops it, "Continue in background" leaves it to the tray, and the open detail moves to v2 without a reload', async ({ page, server }) => {
  test.setTimeout(90_000);
  await insertMedia(server, { title: 'Harbour Still' });
  const file = await makeImage(dir, 'harbour-v2.jpg');
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  await islandsReady(page);
  await page.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));
  // Long enough for Cancel Upload to come before the only chunk is in.
  await slowPatches(page, 5000);
  const card = page.getByTestId('media-card').filter({ hasText: 'Harbour Still' });
  await card.getByRole('button', { name: 'Open Harbour Still' }).click();
  const detail = page.getByRole('dialog', { name: 'Harbour Still' });
  await expect(detail.getByTestId('approval-panel')).toContainText('v1 approval');

  await detail.getByRole('button', { name: 'Upload new version' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload new version' });
  await upload.getByLabel('File').setInputFiles(file);
  await upload.getByRole('button', { name: 'Upload version' }).click();
  await expect(upload.getByTestId('version-progress').getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
  await expect(tray(page).getByTestId('upload-version-of')).toHaveText('New version of “Harbour Still”');
  await upload.getByRole('button', { name: 'Cancel Upload' }).click();
  await expect(page.getByTestId('toast')).toContainText('Upload cancelled');
  await expect(tray(page).getByTestId('upload-item')).toHaveCount(0);
  // The form is back, as before anything was sent.
  await expect(upload.getByLabel('File')).toBeEnabled();

  await upload.getByLabel('File').setInputFiles(file);
  await upload.getByRole('button', { name: 'Upload version' }).click();
  await expect(upload.getByTestId('version-progress').getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
  await upload.getByRole('button', { name: 'Continue in background' }).click();
  await expect(upload).toBeHidden();
  await expect(detail).toBeVisible();
  const row = tray(page).getByTestId('upload-item');
  await expect(row.getByRole('progressbar', { name: 'Upload progress: harbour-v2.jpg' })).toBeVisible();
  await expect(row.getByTestId('upload-version-of')).toHaveText('New version of “Harbour Still”');
  await expect(row).toHaveAttribute('data-phase', 'done', { timeout: 30_000 });
  await expect(page.getByTestId('toast').filter({ hasText: 'Version v2 uploaded' })).toContainText('Harbour Still is now at v2; its approval is back to In review.');
  await expect(detail.getByLabel('Version', { exact: true }).locator('option:checked')).toHaveText(/^v2 \(current\)/);
  await expect(detail.getByTestId('approval-panel')).toContainText('v2 approval');
  await expect(card.getByTestId('card-version')).toHaveText('v2');
  expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
  expect(Number((await server.sql.execute("SELECT count(*) AS n FROM media WHERE title = 'Harbour Still'")).rows[0]!.n)).toBe(1);
  // A version asks for no fields: nothing is kept for its file.
  expect(await keptFieldKeys(page)).toEqual([]);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('files dropped anywhere on the media page open the dialog with them chosen', async ({ page }) => {
  const bytes = fs.readFileSync(await makeImage(dir, 'dropped-still.jpg')).toString('base64');
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  // The drop listeners belong to the media island: a drag before it hydrates meets nothing.
  await islandsReady(page);
  const transfer = await page.evaluateHandle((b64) => {
    const dt = new DataTransfer();
    const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    dt.items.add(new File([bin], 'dropped-still.jpg', { type: 'image/jpeg' }));
    return dt;
  }, bytes);
  const target = page.getByRole('heading', { name: 'Media Management' });
  // The listeners are attached by an effect after hydration: on a loaded machine the first drag
  // can still come before them, so the drag is repeated until the overlay answers it.
  await expect(async () => {
    await target.dispatchEvent('dragenter', { dataTransfer: transfer });
    await target.dispatchEvent('dragover', { dataTransfer: transfer });
    await expect(page.getByTestId('drop-overlay')).toContainText('Drop files to upload', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await target.dispatchEvent('drop', { dataTransfer: transfer });
  await expect(page.getByTestId('drop-overlay')).toHaveCount(0);
  const dialog = page.getByRole('dialog', { name: 'Upload New Media' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(/^dropped-still\.jpg · /)).toBeVisible();
  await expect(dialog.getByLabel('Title')).toHaveValue('dropped still');
  expect(await dialog.getByLabel('File').evaluate((i: HTMLInputElement) => [...(i.files ?? [])].map((f) => f.name))).toEqual(['dropped-still.jpg']);
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByTestId('media-card').filter({ hasText: 'dropped still' })).toBeVisible({ timeout: 20_000 });
});

test('a folder dropped from the desktop: each image or video in it and its subfolders is its own item, other files left out', async ({ page }) => {
  // A real drop of a real folder, as the operating system hands it to Chromium (DevTools'
  // Input.dispatchDragEvent with a path): the page reads it through webkitGetAsEntry.
  const folder = path.join(dir, 'Shoot day');
  fs.mkdirSync(path.join(folder, 'b-roll'), { recursive: true });
  await makeImage(folder, 'wide.jpg');
  await makeImage(path.join(folder, 'b-roll'), 'close-up.jpg');
  fs.writeFileSync(path.join(folder, 'call sheet.txt'), 'Call 7:00');
  fs.writeFileSync(path.join(folder, '.DS_Store'), 'x');
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  await islandsReady(page);
  const box = (await page.getByRole('heading', { name: 'Media Management' }).boundingBox())!;
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [], files: [folder], dragOperationsMask: 1 };
  await expect(async () => {
    for (const type of ['dragEnter', 'dragOver'] as const) await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
    await expect(page.getByTestId('drop-overlay')).toContainText('Drop files to upload', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await cdp.send('Input.dispatchDragEvent', { type: 'drop', ...at, data });
  const dialog = page.getByRole('dialog', { name: 'Upload New Media' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(/^(close-up|wide)\.jpg · /)).toHaveCount(2);
  expect(await dialog.getByLabel('File').evaluate((i: HTMLInputElement) => [...(i.files ?? [])].map((f) => f.name).sort())).toEqual(['close-up.jpg', 'wide.jpg']);
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  for (const title of ['close up', 'wide']) await expect(page.getByTestId('media-card').filter({ hasText: title })).toBeVisible({ timeout: 20_000 });
});

test('a failed finish shows its error in the tray with Retry, which finishes the same upload', async ({ page, server }) => {
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  let finishes = 0;
  await page.route(/\/api\/media$/, async (route) => {
    if (route.request().method() === 'POST' && ++finishes === 1) return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'The library is busy, try again' }) });
    await route.continue();
  });
  let creations = 0;
  page.on('request', (r) => r.method() === 'POST' && /\/api\/uploads$/.test(r.url()) && creations++);
  const dialog = await openUpload(page);
  await dialog.getByLabel('File').setInputFiles(await makeImage(dir, 'retry-me.jpg'));
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await dialog.getByRole('button', { name: 'Continue in background' }).click();
  const item = tray(page).getByTestId('upload-item');
  await expect(item).toHaveAttribute('data-phase', 'failed');
  await expect(item.getByRole('alert')).toHaveText('The library is busy, try again');
  await expect(tray(page)).toContainText('1 upload failed');
  await tray(page).getByRole('button', { name: 'Retry upload of retry-me.jpg' }).click();
  await expect(item).toHaveAttribute('data-phase', 'done');
  await expect(page.getByTestId('media-card').filter({ hasText: 'retry me' })).toBeVisible();
  // The bytes were sent once; only the finishing call was repeated.
  expect(creations).toBe(1);
  expect(finishes).toBe(2);
  expect(Number((await server.sql.execute("SELECT count(*) AS n FROM media WHERE title = 'retry me'")).rows[0]!.n)).toBe(1);
});

test('the theme chosen in the browser stays through a page change by the client router', async ({ page }) => {
  // No theme cookie: the server renders the admin area dark (system), the browser's script
  // makes it light; the router then swaps in the next page's <html> attributes.
  await page.emulateMedia({ colorScheme: 'light' });
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  await nav(page).getByRole('link', { name: 'Clients' }).click();
  await expect(page).toHaveURL(/\/admin\/clients$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Client');
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  expect(await page.evaluate(() => document.documentElement.style.colorScheme)).toBe('light');
});

for (const theme of ['light', 'dark'] as const) {
  test(`the upload tray is axe-clean in the ${theme} theme`, async ({ page, server }) => {
    await page.context().addCookies([{ name: 'studio-theme', value: theme, url: server.url }]);
    await page.addInitScript((t) => localStorage.setItem('studio-theme', t), theme);
    await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
    await slowPatches(page, 60_000);
    const dialog = await openUpload(page);
    await dialog.getByLabel('File').setInputFiles([await makeImage(dir, `axe-${theme}-a.jpg`), await makeImage(dir, `axe-${theme}-b.jpg`)]);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.getByRole('button', { name: 'Continue in background' }).click();
    await expect(tray(page).getByTestId('upload-item')).toHaveCount(2);
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/);
    expect(await seriousViolations(page)).toEqual([]);
    // Keyboard: the tray collapses and expands from its button, with a visible focus ring.
    const toggle = tray(page).getByRole('button', { name: 'Collapse uploads' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const expand = tray(page).getByRole('button', { name: 'Expand uploads' });
    await expect(expand).toHaveAttribute('aria-expanded', 'false');
    await expect(expand).toBeFocused();
    expect(await expand.evaluate((el) => el.matches(':focus-visible') && getComputedStyle(el).outlineStyle !== 'none')).toBe(true);
    await expect(tray(page).getByTestId('upload-item').first()).toBeHidden();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await expect(tray(page).getByTestId('upload-item').first()).toBeVisible();
    // The same file again while it uploads would write to the same server upload: refused.
    const again = await openUpload(page);
    await again.getByLabel('File').setInputFiles(path.join(dir, `axe-${theme}-a.jpg`));
    await again.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(again.getByText(`axe-${theme}-a.jpg is already uploading (see the upload tray at the bottom right)`)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(tray(page).getByTestId('upload-item')).toHaveCount(2);
    await tray(page).getByRole('button', { name: `Cancel upload of axe-${theme}-a.jpg` }).click();
    await expect(tray(page).getByTestId('upload-item')).toHaveCount(1);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });
}
