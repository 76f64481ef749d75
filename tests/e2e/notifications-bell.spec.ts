// The staff bell and the notification settings (issue 17) in a real browser: unread badge
// and names, the list as links straight to the item, keyboard, both themes, and the
// Notifications dialogs of the admin user menu and the portal.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, ADMIN } from './fixtures.ts';
import { insertMedia, signInAs } from './admin-helpers.ts';
import { settled } from './public-helpers.ts';
import { createClientWithPortalLogin } from '../helpers/portal-fixtures.ts';
import type { TestServer } from '../helpers/server.ts';

async function staffEvent(server: TestServer, mediaId: number, summary: string) {
  await server.sql.execute({
    sql: `INSERT INTO notification_events (kind, media_id, version_number, actor, summary, path, audience) VALUES ('feedback', ?, 1, 'Acme (acme.jo)', ?, ?, 'staff')`,
    args: [mediaId, summary, `/admin/media?item=${mediaId}`],
  });
}

const seenAll = (server: TestServer) =>
  server.sql.execute({ sql: "UPDATE users SET bell_seen_id = (SELECT coalesce(max(id), 0) FROM notification_events) WHERE username = ?", args: [ADMIN.username] });

for (const theme of ['light', 'dark'] as const) {
  test(`bell in the ${theme} theme: unread badge, list of links, marks read, opens the item`, async ({ page, server }) => {
    await seenAll(server);
    const id = await insertMedia(server, { title: `Bell Film ${theme}` });
    await staffEvent(server, id, `Acme (acme.jo) left feedback on "Bell Film ${theme}" v1`);
    await staffEvent(server, id, `Acme (acme.jo) left a timeline note on "Bell Film ${theme}" v1`);
    await page.context().addCookies([{ name: 'studio-theme', value: theme, url: server.url }]);
    await page.addInitScript((t) => localStorage.setItem('studio-theme', t), theme);
    await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');

    const bell = page.getByRole('button', { name: 'Notifications (2 unread)', exact: true });
    await expect(bell).toBeVisible();
    await bell.focus();
    await page.keyboard.press('Enter');
    const list = page.getByRole('region', { name: 'Recent notifications' });
    const links = list.getByRole('link');
    // Newest first; earlier tests' events (same server) follow, already read.
    await expect(links.first()).toContainText(`left a timeline note on "Bell Film ${theme}" v1`);
    await expect(links.nth(1)).toContainText(`left feedback on "Bell Film ${theme}" v1`);
    await expect(list.getByText('New:')).toHaveCount(2);
    await expect(links.first()).toHaveAttribute('href', `/admin/media?item=${id}`);
    // Opening marked them read on the server; the items stay marked new while it is open.
    await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
    await expect(links.first()).toContainText('New:');
    await settled(page);
    const { violations } = await new AxeBuilder({ page }).include('[data-testid="admin-nav"]').analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

    await page.keyboard.press('Tab');
    await expect(links.first()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(list).toBeHidden();
    await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeFocused();

    await page.getByRole('button', { name: 'Notifications', exact: true }).click();
    await links.first().click();
    await expect(page).toHaveURL(/\/admin\/media$/);
    await expect(page.getByRole('dialog', { name: new RegExp(`Bell Film ${theme}`) })).toBeVisible();
  });
}

test('staff choose their email mode from the user menu', async ({ page, server }) => {
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
  await page.getByTestId('user-menu-button').click();
  await page.getByRole('menuitem', { name: 'Notifications' }).click();
  const dialog = page.getByRole('dialog', { name: 'Email notifications' });
  await expect(dialog.getByRole('radio', { name: /Off/ })).toBeChecked();
  await dialog.getByRole('radio', { name: /Daily digest/ }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Saved: daily digest.');
  const row = await server.sql.execute({ sql: 'SELECT notify_mode FROM users WHERE username = ?', args: [ADMIN.username] });
  expect(row.rows[0]!.notify_mode).toBe('digest');
});

async function signInClient(page: Page, username: string, password: string) {
  const res = await page.request.post('/api/client/login', { data: { username, password } });
  expect(res.status()).toBe(200);
  await page.goto('/client/dashboard');
  await page.locator('astro-island:not([ssr]) header').first().waitFor();
}

test('clients choose their email mode in the portal', async ({ page, server }) => {
  const login = await createClientWithPortalLogin(server, 'Notify');
  await signInClient(page, login.username, login.password);
  await page.getByRole('button', { name: 'Notifications', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Email notifications' });
  await expect(dialog.getByRole('radio', { name: /Immediately/ })).toBeChecked();
  await dialog.getByRole('radio', { name: /Off/ }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Saved: off.');
  const row = await server.sql.execute({ sql: 'SELECT notify_mode FROM client_users WHERE id = ?', args: [login.clientUserId] });
  expect(row.rows[0]!.notify_mode).toBe('off');
});
