// Issue 19 #16: failures read as sentences; an expired session offers "Sign in again" and
// comes back to the screen after sign-in.
import { test, expect, ADMIN } from './fixtures.ts';
import { islandsReady, signInAs } from './admin-helpers.ts';

const SCREEN = '/admin/website-customization';

async function saveBranding(page: import('@playwright/test').Page) {
  await page.getByRole('tab', { name: 'Branding', exact: true }).click();
  await page.getByRole('button', { name: 'Save Branding Settings' }).click();
}

test('a save that cannot reach the server says so in words', async ({ page }) => {
  await signInAs(page, ADMIN.username, ADMIN.password, SCREEN);
  await page.route('**/api/branding-settings', (route) => route.abort('internetdisconnected'));
  await saveBranding(page);
  const toast = page.getByTestId('toast');
  await expect(toast).toContainText('Could not reach the server. Check your connection and try again.');
  await expect(toast).not.toContainText('Failed to fetch');
});

test('a proxy\'s bare 500 page reads as a sentence, not "Internal Server Error"', async ({ page }) => {
  await signInAs(page, ADMIN.username, ADMIN.password, SCREEN);
  await page.route('**/api/branding-settings', (route) => route.fulfill({ status: 500, contentType: 'text/plain', body: 'Internal Server Error' }));
  await saveBranding(page);
  const toast = page.getByTestId('toast');
  await expect(toast).toContainText('Something went wrong on the server. Please try again in a moment.');
  await expect(toast).not.toContainText('Internal Server Error');
});

test('a session that expires mid-edit offers "Sign in again" and returns to the screen', async ({ page, server }) => {
  await signInAs(page, ADMIN.username, ADMIN.password, SCREEN);
  await server.sql.execute('DELETE FROM staff_sessions');
  await saveBranding(page);
  const toast = page.getByTestId('toast');
  await expect(toast).toContainText('Your session has expired. Sign in again to continue.');
  const again = toast.getByRole('link', { name: 'Sign in again' });
  await expect(again).toHaveAttribute('href', `/auth?next=${encodeURIComponent(SCREEN)}`);
  await again.click();
  await expect(page).toHaveURL(/\/auth\?next=/);
  await islandsReady(page);
  await page.getByLabel('Username or Email').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(new RegExp(`${SCREEN}$`));
});

test('a return path to another site is ignored after sign-in', async ({ page }) => {
  await page.goto('/auth?next=%2F%2Fevil.example%2Fx');
  await islandsReady(page);
  await page.getByLabel('Username or Email').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});
