// The upload dialog's resumable uploads (tus) in real Chromium against the real server:
// going offline half-way and coming back continues from the server's offset; a reload
// mid-upload and choosing the same file again continues too; several files at once with
// pause and resume. "Continues" is checked on the server side: one creation request, and
// the first PATCH afterwards starts at the offset the server had kept, never at 0.
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { CDPSession, Page } from '@playwright/test';
import { test, expect, ADMIN } from './fixtures.ts';
import { islandsReady, makeVideo, signInAs, tempDir } from './admin-helpers.ts';
import type { TestServer } from '../helpers/server.ts';

const MB = 1024 * 1024;
let dir: string;
test.beforeAll(() => {
  dir = tempDir();
});
test.afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
test.afterEach(({ server }, info) => {
  if (info.status !== info.expectedStatus) console.log('SERVER_OUTPUT', server.output().slice(-4000));
});

/** A real MP4 followed by a top-level 'free' box of random bytes: valid, and as large as we like. */
function paddedVideo(name: string, mb: number): string {
  const base = fs.readFileSync(makeVideo(dir, `base-${name}`, 2));
  const pad = mb * MB - base.length - 8;
  const header = Buffer.alloc(8);
  header.writeUInt32BE(pad + 8, 0);
  header.write('free', 4, 'latin1');
  const file = path.join(dir, name);
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, base);
  fs.writeSync(fd, header);
  for (let left = pad; left > 0; left -= 4 * MB) fs.writeSync(fd, randomBytes(Math.min(4 * MB, left)));
  fs.closeSync(fd);
  return file;
}

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Bytes the server holds for unfinished uploads (MEDIA_DIR/.uploads). */
function stagedBytes(server: TestServer): number {
  const d = path.join(server.mediaDir, '.uploads');
  if (!fs.existsSync(d)) return 0;
  return fs
    .readdirSync(d)
    .filter((n) => /^[a-f0-9]{32}$/.test(n))
    .reduce((sum, n) => sum + (fs.statSync(path.join(d, n), { throwIfNoEntry: false })?.size ?? 0), 0);
}

async function storedOriginal(server: TestServer, title: string): Promise<string> {
  const url = String((await server.sql.execute({ sql: 'SELECT url FROM media WHERE title = ?', args: [title] })).rows[0]!.url);
  const [, key, variant] = url.match(/^\/media\/([a-f0-9]{32})\/(.+)$/)!;
  return path.join(server.mediaDir, key!, variant!);
}

async function throttle(cdp: CDPSession, opts: { offline?: boolean; upload?: number }) {
  await cdp.send('Network.emulateNetworkConditions', { offline: !!opts.offline, latency: 0, downloadThroughput: -1, uploadThroughput: opts.upload ?? -1 });
}

/** Every tus request the page makes: creations (and each file's upload path), and the Upload-Offset of each PATCH. */
function watchTus(page: Page) {
  const log = { creations: 0, patches: [] as number[], patchesOf: new Map<string, number[]>(), uploadOf: new Map<string, string>() };
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/uploads$/.test(r.url())) log.creations++;
    if (r.method() === 'PATCH' && /\/api\/uploads\/[a-f0-9]{32}$/.test(r.url())) {
      const offset = Number(r.headers()['upload-offset']);
      log.patches.push(offset);
      const p = new URL(r.url()).pathname;
      log.patchesOf.set(p, [...(log.patchesOf.get(p) ?? []), offset]);
    }
  });
  page.on('response', (res) => {
    const r = res.request();
    if (r.method() !== 'POST' || !/\/api\/uploads$/.test(r.url()) || res.status() !== 201) return;
    const name = /(?:^|,)filename ([^,]+)/.exec(r.headers()['upload-metadata'] ?? '')?.[1];
    if (name) log.uploadOf.set(Buffer.from(name, 'base64').toString(), new URL(res.headers()['location']!, r.url()).pathname);
  });
  return log;
}

/**
 * The server's offset for an upload, asked outside the page (so not subject to its emulated
 * network). tus takes the upload's lock for HEAD, so the answer comes once the server is done
 * with any request still writing to it: what it reports then is what it kept.
 */
async function serverOffset(page: Page, uploadPath: string): Promise<number> {
  const res = await page.request.fetch(uploadPath, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
  expect(res.status()).toBe(200);
  return Number(res.headers()['upload-offset']);
}

async function openUpload(page: Page) {
  await page.getByRole('button', { name: 'Upload Media' }).click();
  return page.getByRole('dialog', { name: 'Upload New Media' });
}

test('offline half-way: "Connection lost, retrying...", then it continues from the server\'s offset by itself', async ({ page, server }) => {
  test.setTimeout(120_000);
  const file = paddedVideo('offline-cut.mp4', 96);
  const size = fs.statSync(file).size;
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await throttle(cdp, { upload: 12 * MB });
  const tus = watchTus(page);

  const dialog = await openUpload(page);
  await dialog.getByLabel('File').setInputFiles(file);
  await dialog.getByLabel('Title').fill('Offline Cut');
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect.poll(() => stagedBytes(server), { timeout: 60_000, intervals: [100] }).toBeGreaterThan(size * 0.4);

  await throttle(cdp, { offline: true });
  await expect(dialog.getByText('Connection lost, retrying...')).toBeVisible();
  const kept = await serverOffset(page, tus.uploadOf.get('offline-cut.mp4')!);
  expect(kept).toBe(stagedBytes(server));
  expect(kept).toBeGreaterThan(size * 0.4);
  expect(kept).toBeLessThan(size);
  const patchesBefore = tus.patches.length;

  await throttle(cdp, {});
  await expect(page.getByTestId('toast')).toContainText('Media uploaded', { timeout: 60_000 });
  await expect(dialog).toBeHidden();

  expect(tus.creations).toBe(1);
  const after = tus.patches.slice(patchesBefore);
  expect(after.length).toBeGreaterThan(0);
  // The first request after the cut continues at what the server had, not at zero.
  expect(after[0]).toBeGreaterThanOrEqual(kept);
  expect(Math.min(...after)).toBeGreaterThanOrEqual(kept);
  expect(sha256(await storedOriginal(server, 'Offline Cut'))).toBe(sha256(file));
});

test('reload mid-upload, choose the same file: the dialog says it continues, and it does from the server\'s offset', async ({ page, server }) => {
  test.setTimeout(120_000);
  const file = paddedVideo('reloaded.mp4', 64);
  const size = fs.statSync(file).size;
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await throttle(cdp, { upload: 12 * MB });

  let dialog = await openUpload(page);
  await dialog.getByLabel('File').setInputFiles(file);
  await dialog.getByLabel('Title').fill('Reloaded');
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect.poll(() => stagedBytes(server), { timeout: 60_000, intervals: [100] }).toBeGreaterThan(size * 0.25);

  await page.reload();
  await islandsReady(page);
  await throttle(cdp, {});
  const kept = stagedBytes(server);
  expect(kept).toBeGreaterThan(size * 0.25);
  expect(kept).toBeLessThan(size);
  const tus = watchTus(page);

  dialog = await openUpload(page);
  await dialog.getByLabel('File').setInputFiles(file);
  await expect(dialog.getByTestId('upload-resume-note')).toContainText(/reloaded\.mp4 was interrupted at \d+% .* it continues from there/);
  await dialog.getByLabel('Title').fill('Reloaded');
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByTestId('toast')).toContainText('Media uploaded', { timeout: 60_000 });

  expect(tus.creations).toBe(0);
  expect(tus.patches[0]).toBeGreaterThanOrEqual(kept);
  expect(sha256(await storedOriginal(server, 'Reloaded'))).toBe(sha256(file));
  expect(stagedBytes(server)).toBe(0);
});

test('several files at once, each with its own progress; one paused and resumed', async ({ page, server }) => {
  test.setTimeout(120_000);
  const big = paddedVideo('several-big.mp4', 40);
  const small = paddedVideo('several-small.mp4', 3);
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await throttle(cdp, { upload: 8 * MB });

  const tus = watchTus(page);
  const dialog = await openUpload(page);
  await dialog.getByLabel('File').setInputFiles([big, small]);
  await expect(dialog.getByText('2 files: each is titled from its file name')).toBeVisible();
  await dialog.getByLabel('Tags').fill('batch');
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  const bigBar = dialog.getByRole('progressbar', { name: 'Upload progress: several-big.mp4' });
  await expect(bigBar).toBeVisible();
  await expect(dialog.getByRole('progressbar', { name: 'Upload progress: several-small.mp4' })).toBeVisible();
  await expect(dialog.getByTestId('upload-rate').first()).toContainText(/\/s · .* left/, { timeout: 20_000 });

  await expect.poll(async () => Number(await bigBar.getAttribute('aria-valuenow')), { timeout: 30_000 }).toBeGreaterThan(10);
  // Paused inside the first 16 MB chunk (40% of the file): that PATCH is under way.
  const bigUpload = tus.uploadOf.get('several-big.mp4')!;
  const stopped = page.waitForEvent('requestfailed', { predicate: (r) => r.method() === 'PATCH' && new URL(r.url()).pathname === bigUpload, timeout: 15_000 });
  await dialog.getByRole('button', { name: 'Pause upload of several-big.mp4' }).click();
  await expect(dialog.getByText(/\d+% · Paused/)).toBeVisible();
  // Pausing ends the request in the browser, and the server keeps what reached it.
  await stopped;
  const paused = await serverOffset(page, bigUpload);
  expect(paused).toBeGreaterThan(0);
  const patchesWhilePaused = tus.patchesOf.get(bigUpload)!.length;

  await throttle(cdp, {});
  expect(tus.patchesOf.get(bigUpload)).toHaveLength(patchesWhilePaused);
  await dialog.getByRole('button', { name: 'Resume upload of several-big.mp4' }).click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
  // Nothing moved while paused: the resumed upload's first request starts exactly where the
  // server stood when the pause took effect (the client asks the server first).
  expect(tus.patchesOf.get(bigUpload)![patchesWhilePaused]).toBe(paused);
  const rows = (await server.sql.execute("SELECT title, tags FROM media WHERE title LIKE 'several %' ORDER BY title")).rows;
  expect(rows.map((r) => r.title)).toEqual(['several big', 'several small']);
  expect(rows.every((r) => JSON.parse(String(r.tags))[0] === 'batch')).toBe(true);
  expect(sha256(await storedOriginal(server, 'several big'))).toBe(sha256(big));
});

test('Cancel terminates the upload on the server: no staged bytes and no record are left', async ({ page, server }) => {
  const file = paddedVideo('cancelled.mp4', 24);
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await throttle(cdp, { upload: 2 * MB });
  const dialog = await openUpload(page);
  await dialog.getByLabel('File').setInputFiles(file);
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect.poll(() => stagedBytes(server), { timeout: 30_000, intervals: [100] }).toBeGreaterThan(2 * MB);
  const open = async () => Number((await server.sql.execute('SELECT count(*) AS n FROM uploads WHERE finished_at IS NULL')).rows[0]!.n);
  expect(await open()).toBe(1);
  await dialog.getByRole('button', { name: 'Cancel Upload' }).click();
  await expect(page.getByTestId('toast')).toContainText('Upload cancelled');
  await expect.poll(open, { timeout: 15_000 }).toBe(0);
  expect(stagedBytes(server)).toBe(0);
  // Nothing is left to resume either.
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('tus::')).length)).toBe(0);
});

// Issue 39: a file still being written (an export not finished) cannot be read any more once it
// changes; each chunk's request then fails like a lost connection, and the upload sat at
// "Connection lost, retrying..." for ever.
test('a file that changes on disk while it uploads says so, instead of retrying for ever', async ({ page, server }) => {
  test.setTimeout(120_000);
  const file = paddedVideo('still-exporting.mp4', 48);
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await throttle(cdp, { upload: 8 * MB });
  const dialog = await openUpload(page);
  await dialog.getByLabel('File').setInputFiles(file);
  await dialog.getByLabel('Title').fill('Still Exporting');
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect.poll(() => stagedBytes(server), { timeout: 60_000, intervals: [100] }).toBeGreaterThan(MB);
  // The editor's export goes on writing the file.
  fs.appendFileSync(file, randomBytes(MB));
  await expect(dialog.getByText('The file changed on disk while it was uploading (still being exported?). Choose it again once it is complete.')).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByText('Connection lost, retrying...')).toHaveCount(0);
  await expect(page.getByTestId('toast').filter({ hasText: 'Upload failed' })).toBeVisible();
  expect((await server.sql.execute({ sql: "SELECT COUNT(*) AS n FROM media WHERE title = 'Still Exporting'", args: [] })).rows[0]!.n).toBe(0);
  await throttle(cdp, {});
});

test('a file changed after it was chosen and before Upload says so at once, and nothing is sent', async ({ page }) => {
  test.setTimeout(60_000);
  const file = paddedVideo('changed-before.mp4', 2);
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  const tus = watchTus(page);
  const dialog = await openUpload(page);
  await dialog.getByLabel('File').setInputFiles(file);
  await dialog.getByLabel('Title').fill('Changed Before');
  fs.appendFileSync(file, randomBytes(1024));
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog.getByText(/^The file changed on disk while it was uploading/)).toBeVisible();
  await expect(dialog.getByText('Connection lost, retrying...')).toHaveCount(0);
  expect(tus.creations).toBe(0);
  expect(tus.patches).toEqual([]);
});
