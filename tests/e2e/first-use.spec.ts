// What new users tripped on (issue 53), where a page is needed to see it: the public pages'
// header bands, one list of project stages in every admin select, the media cards' counts of
// earlier versions, the gallery tiles' set names and the password rules on the user form. The
// cookie banner and the footer's links are in public-cookies.spec.ts and public-pages.spec.ts.
import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { test, expect, ADMIN } from './fixtures.ts';
import { createClient, insertMedia, islandsReady, signInAs } from './admin-helpers.ts';
import { hashPassword } from '../../src/server/auth/password.ts';

// Before: the header's bottom padding and the next section's top padding added up to a band of
// 250 px or more of nothing between the lead and the first card or panel.
test('public page headers: no empty band between the lead and the first content, at 1280 and 375 px, in both themes', async ({ page }) => {
  for (const theme of ['dark', 'light'] as const) {
    await page.goto('/about');
    await page.evaluate((t) => localStorage.setItem('studio-theme', t), theme);
    for (const [width, most] of [[1280, 160], [375, 120]] as const) {
      await page.setViewportSize({ width, height: 900 });
      for (const [path, header] of [['/portfolio', 'portfolio-header'], ['/contact', 'contact-header']]) {
        await page.goto(path);
        await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark).*$/);
        const gap = await page.getByTestId(header).evaluate((h) => {
          const lead = h.querySelector('p:last-of-type')!.getBoundingClientRect();
          // The next section's first piece of content (the grid, the empty state or the form's panel).
          const first = [...h.nextElementSibling!.querySelectorAll(':scope > div > *')].find((e) => !e.classList.contains('sr-only'))!;
          return first.getBoundingClientRect().top - lead.bottom;
        });
        expect(gap, `${path} ${width} px ${theme}`).toBeGreaterThan(0);
        expect(gap, `${path} ${width} px ${theme}`).toBeLessThanOrEqual(most);
      }
    }
  }
});

const card = (page: Page, title: string) => page.getByTestId('media-card').filter({ has: page.getByTestId('card-title').getByText(title, { exact: true }) });
const stageLabels = async (select: Locator) => (await select.locator('option').allTextContents()).filter((t) => !['All stages', 'No stage', 'None', 'Not specified'].includes(t));

test('the stage selects of Upload, Edit, the Edit tab and the library filter offer one list', async ({ page, server }) => {
  await insertMedia(server, { title: 'Staged Still', stage: 'review' });
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  const list = ['Concept', 'Pre-production', 'Production', 'Post-production', 'Review', 'Completed', 'Delivered'];
  expect(await stageLabels(page.getByLabel('Stage'))).toEqual(list);

  await page.getByRole('button', { name: 'Upload Media' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload New Media' });
  expect(await stageLabels(upload.getByLabel('Project Stage'))).toEqual(list);
  await page.keyboard.press('Escape');
  await expect(upload).toBeHidden();

  const c = card(page, 'Staged Still');
  await c.getByRole('button', { name: 'Actions for Staged Still' }).click();
  await page.getByRole('menuitem', { name: 'Edit Media' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Media' });
  await expect(edit.getByLabel('Project Stage')).toHaveValue('review');
  expect(await stageLabels(edit.getByLabel('Project Stage'))).toEqual(list);
  await page.keyboard.press('Escape');
  await expect(edit).toBeHidden();

  await c.getByRole('button', { name: 'Open Staged Still' }).click();
  const detail = page.getByRole('dialog', { name: 'Staged Still' });
  await detail.getByRole('tab', { name: 'Edit' }).click();
  await expect(detail.getByLabel('Project Stage')).toHaveValue('review');
  expect(await stageLabels(detail.getByLabel('Project Stage'))).toEqual(list);
});

test("a card on v2 counts v1's reviews as earlier, not as none", async ({ page, server }) => {
  const mediaId = await insertMedia(server, { title: 'Second Cut' });
  const clientId = await createClient(server, 'Earlier Notes');
  const login = await server.sql.execute({
    sql: 'INSERT INTO client_users (client_id, username, email, password_hash) VALUES (?, ?, ?, ?) RETURNING id',
    args: [clientId, 'earlier.notes', 'earlier@notes.test', await hashPassword('earlier-notes-1')],
  });
  for (const text of ['Warmer', 'Shorter']) {
    await server.sql.execute({ sql: 'INSERT INTO client_feedback (media_id, client_user_id, feedback_text, rating) VALUES (?, ?, ?, 4)', args: [mediaId, Number(login.rows[0]!.id), text] });
  }
  // v2 becomes current (the media row names its version by storage key).
  const key = randomBytes(16).toString('hex');
  await server.sql.execute({
    sql: `INSERT INTO media_versions (media_id, number, storage_key, url, filename, file_size, mime_type) VALUES (?, 2, ?, ?, 'cut-2.jpg', 1000, 'image/jpeg')`,
    args: [mediaId, key, `/media/${key}/original.jpg`],
  });
  await server.sql.execute({ sql: 'UPDATE media SET storage_key = ?, url = ? WHERE id = ?', args: [key, `/media/${key}/original.jpg`, mediaId] });

  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  const c = card(page, 'Second Cut');
  await expect(c.getByTestId('card-version')).toHaveText('v2');
  const reviews = c.getByTestId('card-reviews');
  await expect(reviews).toContainText('0 · 2 earlier');
  await expect(reviews).toContainText('0 reviews on v2 · 2 on earlier versions');
  await expect(reviews).toHaveAttribute('title', 'Client reviews: 0 on v2 · 2 on earlier versions');
  await expect(c.getByTestId('card-notes')).toContainText('0 notes');
  await expect(c.getByTestId('card-notes')).not.toContainText('earlier');
});

test("a gallery's tiles name their set where the view mixes sets", async ({ page, server }) => {
  const ids = [await insertMedia(server, { title: 'DSC_1' }), await insertMedia(server, { title: 'DSC_2' })];
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
  const req = { headers: { Origin: server.url } };
  const g = await (await page.request.post('/api/galleries', { ...req, data: { title: 'Wedding', mediaIds: ids } })).json();
  const set = await (await page.request.post(`/api/galleries/${g.id}/sets`, { ...req, data: { name: 'Ceremony' } })).json();
  expect((await page.request.patch(`/api/galleries/${g.id}/images`, { ...req, data: { imageIds: [g.images[0].id], setId: set.id } })).status()).toBe(200);

  await page.goto(`/admin/galleries/${g.id}`);
  await islandsReady(page);
  const tiles = page.getByTestId('staff-tile');
  await expect(tiles).toHaveCount(2);
  await expect(tiles.filter({ hasText: 'Ceremony' })).toHaveCount(1);
  await page.getByRole('group', { name: 'Show set' }).getByRole('button', { name: /^Ceremony/ }).click();
  await expect(tiles).toHaveCount(1);
  await expect(tiles.filter({ hasText: 'Ceremony' })).toHaveCount(0);
});

test('the new-user form says the password rules and refuses a common password before sending it', async ({ page }) => {
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/users');
  await page.getByRole('button', { name: 'Add User' }).first().click();
  const create = page.getByRole('dialog', { name: 'Create New User' });
  const password = create.getByLabel('Password', { exact: true });
  await expect(password).toHaveAccessibleDescription(/^At least 15 characters: .* Common passwords are refused\.$/);
  await create.getByLabel('First Name').fill('Common');
  await create.getByLabel('Last Name').fill('Choice');
  await create.getByLabel('Username').fill('common.choice');
  await create.getByLabel('Email').fill('common@choice.test');
  await password.fill('qwertyqwertyqwerty');
  await create.getByLabel('Confirm Password').fill('qwertyqwertyqwerty');
  await create.getByRole('button', { name: 'Create User' }).click();
  await expect(create.getByText(/This password is too common/)).toBeVisible();
});
