// The staff bell and the notification settings (issues 17 and 32) in a real browser: unread
// badge and names, the list as links straight to the item, a note's time and first line, the
// one-time email question, Mark all read, Email settings, keyboard, both themes, and the
// Notifications dialogs (with the address mail goes to) of the admin user menu and the portal.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, ADMIN } from './fixtures.ts';
import { insertMedia, signInAs } from './admin-helpers.ts';
import { settled } from './public-helpers.ts';
import { createClientWithPortalLogin } from '../helpers/portal-fixtures.ts';
import { createStaffUser } from '../helpers/accounts.ts';
import type { TestServer } from '../helpers/server.ts';

async function staffEvent(server: TestServer, mediaId: number, summary: string) {
  await server.sql.execute({
    sql: `INSERT INTO notification_events (kind, media_id, version_number, actor, summary, path, audience) VALUES ('feedback', ?, 1, 'Acme (acme.jo)', ?, ?, 'staff')`,
    args: [mediaId, summary, `/admin/media?item=${mediaId}`],
  });
}

/** A staff user (view:media) who has read everything so far and, with `asked`, is due the one-time question. */
async function freshStaff(server: TestServer, asked: boolean) {
  const u = await createStaffUser(server, { permissions: ['view:media', 'assign:client'] });
  await server.sql.execute({
    sql: 'UPDATE users SET bell_seen_id = (SELECT coalesce(max(id), 0) FROM notification_events), notify_ask_since = ? WHERE id = ?',
    args: [asked ? Date.now() : null, u.id],
  });
  return u;
}

async function noteEvent(server: TestServer, mediaId: number, summary: string, noteMs: number, noteLine: string) {
  await server.sql.execute({
    sql: `INSERT INTO notification_events (kind, media_id, version_number, actor, summary, path, audience, note_ms, note_line) VALUES ('note', ?, 1, 'Acme (acme.jo)', ?, ?, 'staff', ?, ?)`,
    args: [mediaId, summary, `/admin/media?item=${mediaId}`, noteMs, noteLine],
  });
}

const axeClean = async (page: Page) => {
  await settled(page);
  const { violations } = await new AxeBuilder({ page }).include('[data-testid="admin-nav"]').analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => v.id), JSON.stringify(bad.map((v) => [v.id, v.nodes.map((n) => [n.target, n.failureSummary])]))).toEqual([]);
};

for (const theme of ['light', 'dark'] as const) {
  test(`bell in the ${theme} theme: unread badge, note time and line, the one-time question, Mark all read, Email settings, opens the item`, async ({ page, server }) => {
    const staff = await freshStaff(server, true);
    const id = await insertMedia(server, { title: `Bell Film ${theme}` });
    await staffEvent(server, id, `Acme (acme.jo) left feedback on "Bell Film ${theme}" v1`);
    await noteEvent(server, id, `Acme (acme.jo) left a timeline note on "Bell Film ${theme}" v1`, 125_400, 'Logo too small here');
    await page.context().addCookies([{ name: 'studio-theme', value: theme, url: server.url }]);
    await page.addInitScript((t) => localStorage.setItem('studio-theme', t), theme);
    await signInAs(page, staff.username, staff.password, '/admin/media');

    const bell = page.getByRole('button', { name: 'Notifications (2 unread)', exact: true });
    await expect(bell).toBeVisible();
    await expect(bell).toHaveAccessibleDescription('There is a question for you inside.');
    await bell.focus();
    await page.keyboard.press('Enter');
    const list = page.getByRole('region', { name: 'Recent notifications' });
    const links = list.getByRole('link');
    // Newest first.
    await expect(links.first()).toContainText(`left a timeline note on "Bell Film ${theme}" v1`);
    await expect(links.first().getByTestId('bell-note')).toHaveText('02:05 Logo too small here');
    await expect(links.nth(1)).toContainText(`left feedback on "Bell Film ${theme}" v1`);
    await expect(links.nth(1).getByTestId('bell-note')).toHaveCount(0);
    await expect(list.getByText('New:')).toHaveCount(2);
    await expect(links.first()).toHaveAttribute('href', `/admin/media?item=${id}`);

    // The question, once: axe with it on screen, then answered.
    const ask = list.getByRole('group', { name: 'Get an email when clients respond?' });
    for (const name of ['Dismiss: no emails', 'Immediately', 'Daily digest', 'No thanks']) await expect(ask.getByRole('button', { name, exact: true })).toBeVisible();
    await axeClean(page);
    await ask.getByRole('button', { name: 'Daily digest' }).click();
    await expect(ask).toBeHidden();
    await expect(list.getByRole('status')).toHaveText('Saved: a daily digest.');
    const row = (await server.sql.execute({ sql: 'SELECT notify_mode, notify_prompted_at FROM users WHERE id = ?', args: [staff.id] })).rows[0]!;
    expect(row.notify_mode).toBe('digest');
    expect(row.notify_prompted_at).not.toBeNull();

    // Opening did not mark them read; Mark all read does.
    await expect(bell).toBeVisible();
    await expect(bell).toHaveAccessibleDescription('');
    await list.getByRole('button', { name: 'Mark all read' }).click();
    await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
    await expect(list.getByText('New:')).toHaveCount(0);
    await expect(list.getByRole('button', { name: 'Mark all read' })).toBeDisabled();
    await axeClean(page);

    await links.first().focus();
    await page.keyboard.press('Escape');
    await expect(list).toBeHidden();
    await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeFocused();

    // The settings: the Notifications dialog, with the address mail goes to.
    await page.getByRole('button', { name: 'Notifications', exact: true }).click();
    await list.getByRole('button', { name: 'Email settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Email notifications' });
    await expect(dialog.getByTestId('notify-address')).toHaveText(`Emails go to ${staff.username}@studio.test`);
    await expect(dialog.getByRole('radio', { name: /Daily digest/ })).toBeChecked();
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await expect(dialog).toBeHidden();

    // Asked once: a new page does not ask again.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Notifications', exact: true }).click();
    await expect(list.getByRole('group', { name: 'Get an email when clients respond?' })).toHaveCount(0);
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
  await expect(dialog.getByTestId('notify-address')).toHaveText(`Emails go to ${ADMIN.email}`);
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
  const email = (await server.sql.execute({ sql: 'SELECT email FROM client_users WHERE id = ?', args: [login.clientUserId] })).rows[0]!.email;
  await expect(dialog.getByTestId('notify-address')).toHaveText(`Emails go to ${email}`);
  await dialog.getByRole('radio', { name: /Off/ }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Saved: off.');
  const row = await server.sql.execute({ sql: 'SELECT notify_mode FROM client_users WHERE id = ?', args: [login.clientUserId] });
  expect(row.rows[0]!.notify_mode).toBe('off');
});
