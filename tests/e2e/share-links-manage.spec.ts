// Share links staff can manage (issue 32), in the browser: copy a link's address again from the
// list (clipboard, or the field shown when the browser refuses) and it opens the link; edit a
// link's name and downloads in the same dialog, and a gallery link's name and password; a quick expiry change; a link made before
// addresses were kept gets a new address; the screen and its dialogs are axe-clean in both themes.
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect, ADMIN, oncePerServer } from './fixtures.ts';
import { makeImage, signInAs, tempDir } from './admin-helpers.ts';
import { seriousViolations } from './public-helpers.ts';

let imageId = 0;

test.beforeEach(
  oncePerServer(async (server) => {
    const file = await makeImage(tempDir(), 'still.jpg');
    const res = await fetch(`${server.url}/api/login`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: server.url }, body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }) });
    const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const form = new FormData();
    form.set('title', 'Label Still');
    form.set('file', new Blob([fs.readFileSync(file)], { type: 'image/jpeg' }), 'still.jpg');
    const up = await fetch(`${server.url}/api/media`, { method: 'POST', headers: { Cookie: cookie, Origin: server.url }, body: form });
    expect(up.status).toBe(201);
    imageId = (await up.json()).id;
  }),
);

async function makeLink(page: Page, origin: string, body: Record<string, unknown>): Promise<{ id: number; url: string }> {
  const res = await page.request.post('/api/share-links', { headers: { Origin: origin }, data: { mediaIds: [imageId], ...body } });
  expect(res.status()).toBe(201);
  return res.json();
}

const row = (page: Page, name: string) => page.getByTestId('share-link-row').filter({ has: page.getByRole('heading', { name, exact: true }) });

test('staff copy an address again from the list (clipboard, or the field) and it opens the link', async ({ browser, server }) => {
  const studio = await browser.newContext({ baseURL: server.url, permissions: ['clipboard-read', 'clipboard-write'] });
  const guest = await browser.newContext({ baseURL: server.url });
  try {
    const page = await studio.newPage();
    await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
    const link = await makeLink(page, server.url, { name: 'Copy me' });
    await page.goto('/admin/share-links');
    await page.evaluate(() => navigator.clipboard.writeText('nothing yet'));
    await row(page, 'Copy me').getByRole('button', { name: 'Copy address of Copy me' }).click();
    await expect(page.getByText('Address copied')).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(link.url);

    const visitor = await guest.newPage();
    await visitor.goto(copied);
    await expect(visitor.getByRole('heading', { name: 'Copy me' })).toBeVisible();

    // A browser that refuses the clipboard: the address is shown in a field to copy by hand.
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    });
    await row(page, 'Copy me').getByRole('button', { name: 'Copy address of Copy me' }).click();
    const dialog = page.getByRole('dialog', { name: 'Address of Copy me' });
    await expect(dialog.getByTestId('share-link-address')).toHaveValue(link.url);
    await dialog.getByRole('button', { name: 'Done' }).click();

    // Both copies are in the link's access log, with who copied.
    await row(page, 'Copy me').getByRole('button', { name: 'Access log of Copy me' }).click();
    const log = page.getByTestId('share-log');
    await expect(log.getByText('address copied')).toHaveCount(2);
    await expect(log.getByText('by Studio Admin').first()).toBeVisible();
  } finally {
    await studio.close();
    await guest.close();
  }
});

test('a gallery link is edited from the list: its name and a password, while its images and downloads stay the gallery’s', async ({ browser, server }) => {
  const studio = await browser.newContext({ baseURL: server.url });
  const guest = await browser.newContext({ baseURL: server.url });
  try {
    const page = await studio.newPage();
    await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
    const gallery = await (await page.request.post('/api/galleries', { headers: { Origin: server.url }, data: { title: 'Wrap party', mediaIds: [imageId] } })).json();
    const made = await page.request.post(`/api/galleries/${gallery.id}/links`, { headers: { Origin: server.url }, data: { name: 'Party proofs' } });
    expect(made.status()).toBe(201);
    const link = await made.json();

    await page.goto('/admin/share-links');
    await row(page, 'Party proofs').getByRole('button', { name: 'Edit Party proofs' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit link · Party proofs' });
    await expect(dialog.getByRole('link', { name: 'Wrap party' })).toHaveAttribute('href', `/admin/galleries/${gallery.id}?tab=sharing`);
    // Nothing of the gallery's is offered here: no items to pick, no downloads, no approving.
    await expect(dialog.getByLabel('Downloads', { exact: true })).toHaveCount(0);
    await expect(dialog.getByRole('checkbox', { name: /Label Still/ })).toHaveCount(0);
    await expect(dialog.getByText('Allow approving')).toHaveCount(0);
    await dialog.getByLabel('Link name').fill('Party proofs, round 2');
    await dialog.getByRole('textbox', { name: 'Password (optional)' }).fill('party-2026');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Link saved')).toBeVisible();
    await expect(row(page, 'Party proofs, round 2')).toContainText('Password');

    // The visitor now meets the password first.
    const visitor = await guest.newPage();
    await visitor.goto(link.url);
    await expect(visitor.getByRole('heading', { name: 'Party proofs, round 2' })).toBeVisible();
    await expect(visitor.getByRole('textbox', { name: 'Password' })).toBeVisible();
    const token = new URL(link.url).pathname.split('/').pop();
    expect((await visitor.request.get(`/api/share/${token}`)).status()).toBe(401);
  } finally {
    await studio.close();
    await guest.close();
  }
});

test('staff edit a link name and downloads; a visitor already in sees it on the next request; expiry is extended from the list', async ({ browser, server }) => {
  const studio = await browser.newContext({ baseURL: server.url });
  const guest = await browser.newContext({ baseURL: server.url });
  try {
    const page = await studio.newPage();
    await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
    const link = await makeLink(page, server.url, { name: 'First cut', download: 'none' });
    const visitor = await guest.newPage();
    await visitor.goto(link.url);
    await expect(visitor.getByRole('heading', { name: 'First cut' })).toBeVisible();
    const token = new URL(link.url).pathname.split('/').pop();
    expect((await (await visitor.request.get(`/api/share/${token}`)).json()).download).toBe('none');

    await page.goto('/admin/share-links');
    await row(page, 'First cut').getByRole('button', { name: 'Edit First cut' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit link · First cut' });
    await expect(dialog.getByLabel('Link name')).toHaveValue('First cut');
    await expect(dialog.getByRole('checkbox', { name: /Label Still/ })).toBeChecked();
    await dialog.getByLabel('Link name').fill('Second cut');
    await dialog.getByLabel('Downloads', { exact: true }).selectOption('original');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(row(page, 'Second cut')).toContainText('original files');

    const view = await (await visitor.request.get(`/api/share/${token}`)).json();
    expect(view).toMatchObject({ name: 'Second cut', download: 'original' });
    expect(view.items[0].downloadUrl).toBeTruthy();
    await visitor.reload();
    await expect(visitor.getByRole('heading', { name: 'Second cut' })).toBeVisible();

    // "+7 days" from the list, by keyboard.
    await row(page, 'Second cut').getByRole('button', { name: 'Expiry' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: '+7 days' }).click();
    await expect(page.getByText('Expiry changed')).toBeVisible();
    await expect(row(page, 'Second cut')).toContainText('expires');
    const listed = await (await page.request.get('/api/share-links')).json();
    const days = (new Date(listed.find((l: any) => l.id === link.id).expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
  } finally {
    await studio.close();
    await guest.close();
  }
});

test('a link made before addresses were kept says so and gets a new address; the old one stops opening', async ({ browser, server }) => {
  const studio = await browser.newContext({ baseURL: server.url });
  const guest = await browser.newContext({ baseURL: server.url });
  try {
    const page = await studio.newPage();
    await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
    const link = await makeLink(page, server.url, { name: 'Old link' });
    await server.sql.execute({ sql: 'UPDATE share_links SET token_enc = NULL WHERE id = ?', args: [link.id] });
    await page.goto('/admin/share-links');
    const r = row(page, 'Old link');
    await expect(r.getByTestId('share-link-legacy')).toContainText('its address cannot be shown again');
    await expect(r.getByRole('button', { name: 'Copy address of Old link' })).toHaveCount(0);
    await r.getByRole('button', { name: 'New address for Old link' }).click();
    await page.getByRole('button', { name: 'Make new address' }).click();
    const fresh = page.getByRole('dialog', { name: 'New address ready' }).getByTestId('share-link-address');
    await expect(fresh).toHaveValue(/\/s\/[a-z2-7]{40}$/);
    const url = await fresh.inputValue();
    expect(url).not.toBe(link.url);
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(r.getByTestId('share-link-legacy')).toHaveCount(0);
    await expect(r.getByRole('button', { name: 'Copy address of Old link' })).toBeVisible();

    const visitor = await guest.newPage();
    expect((await visitor.goto(link.url))!.status()).toBe(404);
    await visitor.goto(url);
    await expect(visitor.getByRole('heading', { name: 'Old link' })).toBeVisible();
  } finally {
    await studio.close();
    await guest.close();
  }
});

for (const theme of ['light', 'dark'] as const) {
  test(`the share links screen, the edit dialog and the expiry menu are axe-clean in the ${theme} theme`, async ({ page, server }) => {
    await page.context().addCookies([{ name: 'studio-theme', value: theme, url: server.url }]);
    await page.addInitScript((t) => localStorage.setItem('studio-theme', t), theme);
    await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
    const kept = await makeLink(page, server.url, { name: `Kept ${theme}`, password: 'secret-123' });
    const old = await makeLink(page, server.url, { name: `Legacy ${theme}` });
    await server.sql.execute({ sql: 'UPDATE share_links SET token_enc = NULL WHERE id = ?', args: [old.id] });
    expect(kept.id).toBeGreaterThan(0);
    await page.goto('/admin/share-links');
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/);
    await expect(row(page, `Legacy ${theme}`).getByTestId('share-link-legacy')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await row(page, `Kept ${theme}`).getByRole('button', { name: 'Expiry' }).click();
    await expect(page.getByRole('menuitem', { name: '+30 days' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await row(page, `Kept ${theme}`).getByRole('button', { name: `Edit Kept ${theme}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit link · Kept ${theme}` });
    await expect(dialog.getByRole('checkbox', { name: 'Remove the password' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
}
