// Issue 19 #17 on screen: en-GB dates whatever the browser locale, the enquiry counter and
// limit, deleting a custom permission, and no Client role in the Edit User dialog.
import { test, expect, ADMIN } from './fixtures.ts';
import { createStaffUser, islandsReady, signInAs } from './admin-helpers.ts';

test.describe('in a US-English browser', () => {
  test.use({ locale: 'en-US', timezoneId: 'America/Los_Angeles' });

  test('the users table shows dates as "22 Nov 2026"', async ({ page, server }) => {
    const u = await createStaffUser(server, { permissions: ['view:media'] });
    await server.sql.execute({ sql: 'UPDATE users SET created_at = ? WHERE username = ?', args: [Date.parse('2026-11-22T12:00:00Z'), u.username] });
    await signInAs(page, ADMIN.username, ADMIN.password, '/admin/users');
    const row = page.getByTestId('user-row').filter({ hasText: u.email });
    await expect(row).toContainText('22 Nov 2026');
    await expect(row).not.toContainText('11/22/2026');
  });
});

test('the enquiry message counts characters and stops at 5,000', async ({ page }) => {
  await page.goto('/contact');
  await islandsReady(page);
  const message = page.getByLabel('Message');
  await expect(message).toHaveAttribute('maxlength', '5000');
  await message.fill('Hello');
  await expect(page.getByTestId('message-counter')).toHaveText('5 / 5,000 characters');
  await message.fill('x'.repeat(5000));
  await message.press('y');
  await expect(message).toHaveValue('x'.repeat(5000));
  await expect(page.getByTestId('message-counter')).toHaveText('5,000 / 5,000 characters');
});

test('a custom permission can be deleted from the roles screen; built-in ones offer no button', async ({ page, server }) => {
  await server.sql.execute("INSERT INTO permissions (name, description) VALUES ('export:reels', 'Export showreels')");
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/roles');
  await expect(page.getByRole('button', { name: 'Delete permission view:media' })).toHaveCount(0);
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Delete permission export:reels' }).click();
  await expect(page.getByTestId('toast')).toContainText('Permission deleted');
  await expect(page.locator('[data-permission="export:reels"]')).toHaveCount(0);
  const left = await server.sql.execute("SELECT COUNT(*) AS n FROM permissions WHERE name = 'export:reels'");
  expect(Number(left.rows[0]!.n)).toBe(0);
});

test('the Edit User dialog does not offer the Client role', async ({ page, server }) => {
  const u = await createStaffUser(server, { permissions: ['view:media'] });
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/users');
  const row = page.getByTestId('user-row').filter({ hasText: u.email });
  await row.getByRole('button', { name: `Edit ${u.username}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit User' });
  await expect(edit.getByRole('checkbox', { name: /^Staff/ })).toBeVisible();
  await expect(edit.getByRole('checkbox', { name: /^Client/ })).toHaveCount(0);
});
