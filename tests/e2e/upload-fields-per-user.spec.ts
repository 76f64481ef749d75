// The upload dialog keeps what was typed for a file so an interrupted upload continues with it
// (kept-fields.ts). Issue 40, item 7: those fields belong to the staff member who typed them.
// Staff A types a title, notes, tags and a client for a file and starts it; then A logs out
// (everything kept is removed) or A's session simply ends (what A kept stays under A's id).
// Staff B, on the same browser, has an interrupted upload of the very same file of their own
// (a new version of an item), so choosing it in the upload dialog offers to continue: B must
// see none of A's fields.
import fs from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { createClient, createStaffUser, insertMedia, makeImage, signInAs, tempDir } from './admin-helpers.ts';
import type { TestServer } from '../helpers/server.ts';

let dir: string;
test.beforeAll(() => {
  dir = tempDir();
});
test.afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const PERMISSIONS = ['view:media', 'upload:media', 'edit:media', 'view:clients'];
const A_TYPED = { title: 'Ann private title', notes: 'Ann private notes', tags: 'ann-secret' };

/** Holds every tus PATCH until the page goes away: uploads are created and never finish. */
async function holdPatches(page: Page) {
  await page.route(/\/api\/uploads\/[a-f0-9]{32}$/, async (route) => {
    if (route.request().method() === 'PATCH') return; // never answered; the page leaves first
    await route.continue();
  });
}

/** Resolves when the page's next tus creation (POST /api/uploads) is answered 201. */
const uploadCreated = (page: Page) =>
  page.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/api/uploads' && res.status() === 201);

async function openUpload(page: Page) {
  await page.getByRole('button', { name: 'Upload Media' }).click();
  return page.getByRole('dialog', { name: 'Upload New Media' });
}

const keptText = (page: Page) => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('studio-upload-fields::')).map((k) => localStorage.getItem(k)).join('\n'));

/** Staff A types every field for `file` and starts it (held, so it stays unfinished). */
async function aTypesAndStarts(page: Page, server: TestServer, file: string, clientName: string) {
  const a = await createStaffUser(server, { permissions: PERMISSIONS, displayName: 'Ann' });
  await signInAs(page, a.username, a.password, '/admin/media');
  await holdPatches(page);
  const dialog = await openUpload(page);
  await dialog.getByLabel('File').setInputFiles(file);
  await dialog.getByLabel('Title').fill(A_TYPED.title);
  await dialog.getByLabel('Notes').fill(A_TYPED.notes);
  await dialog.getByLabel('Tags').fill(A_TYPED.tags);
  await dialog.getByLabel('Client').selectOption({ label: clientName });
  const created = uploadCreated(page);
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await created;
  // Kept once the page has the upload's address, a moment after the server's answer arrives.
  await expect.poll(() => keptText(page)).toContain(A_TYPED.title);
  await dialog.getByRole('button', { name: 'Continue in background' }).click();
  await expect(dialog).toBeHidden();
}

/**
 * Staff B signs in, starts `file` as a new version of `itemTitle` (held, then interrupted by a
 * reload), and chooses the same file in the upload dialog: B's own upload offers to continue.
 */
async function bChoosesTheSameFile(page: Page, server: TestServer, file: string, itemTitle: string) {
  const b = await createStaffUser(server, { permissions: PERMISSIONS, displayName: 'Bob' });
  await signInAs(page, b.username, b.password, '/admin/media');
  await holdPatches(page);
  await page.getByTestId('media-card').filter({ hasText: itemTitle }).getByRole('button', { name: `Open ${itemTitle}` }).click();
  await page.getByRole('dialog', { name: itemTitle }).getByRole('button', { name: 'Upload new version' }).click();
  const version = page.getByRole('dialog', { name: 'Upload new version' });
  await version.getByLabel('File').setInputFiles(file);
  const created = uploadCreated(page);
  await version.getByRole('button', { name: 'Upload version' }).click();
  await created;
  await page.reload();
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  const dialog = await openUpload(page);
  await dialog.getByLabel('File').setInputFiles(file);
  // The note and the kept fields come from one answer (the server still holds B's upload).
  await expect(dialog.getByTestId('upload-resume-note')).toContainText('shared-clip.jpg was interrupted at');
  return dialog;
}

async function expectNothingOfA(dialog: Locator) {
  await expect(dialog.getByLabel('Title')).toHaveValue('shared clip');
  await expect(dialog.getByLabel('Notes')).toHaveValue('');
  await expect(dialog.getByLabel('Tags')).toHaveValue('');
  await expect(dialog.getByLabel('Client').locator('option:checked')).toHaveText('No client');
}

test.beforeEach(({ page }) => {
  // Leaving a page with uploads running asks first (the tray's beforeunload): yes.
  page.on('dialog', (d) => void d.accept());
});

test("A logs out: what A typed leaves the browser, and B choosing the same file sees none of it", async ({ page, server }) => {
  test.setTimeout(90_000);
  const file = await makeImage(dir, 'shared-clip.jpg');
  await insertMedia(server, { title: 'Version target one' });
  await createClient(server, 'Ann Client One');
  await aTypesAndStarts(page, server, file, 'Ann Client One');

  await page.getByTestId('user-menu-button').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  expect(await keptText(page)).toBe('');

  await page.unrouteAll({ behavior: 'ignoreErrors' });
  const dialog = await bChoosesTheSameFile(page, server, file, 'Version target one');
  await expectNothingOfA(dialog);
});

test("A's session ends without a logout: A's fields stay under A's id, and B choosing the same file sees none of them", async ({ page, server }) => {
  test.setTimeout(90_000);
  const file = await makeImage(dir, 'shared-clip.jpg');
  await insertMedia(server, { title: 'Version target two' });
  await createClient(server, 'Ann Client Two');
  await aTypesAndStarts(page, server, file, 'Ann Client Two');

  // As when a session expires or the browser is left signed in: no logout ran in the page.
  await page.context().clearCookies();
  await page.goto('/auth');
  expect(await keptText(page)).toContain(A_TYPED.title);

  await page.unrouteAll({ behavior: 'ignoreErrors' });
  const dialog = await bChoosesTheSameFile(page, server, file, 'Version target two');
  await expectNothingOfA(dialog);
});
