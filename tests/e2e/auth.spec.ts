import { test, expect, signInStaff, waitForHydration, ADMIN } from './fixtures.ts';

test.describe('staff sign-in (/auth)', () => {
  test('shows the exact texts and validation messages under the fields', async ({ page }) => {
    await page.goto('/auth');
    await waitForHydration(page);
    await expect(page.getByRole('heading', { name: 'Staff Login' })).toBeVisible();
    await expect(page.getByText('Access the administrative portal')).toBeVisible();
    await expect(page.getByText('Staff accounts are managed by administrators.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Username or email is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await expect(page.getByLabel('Username or Email')).toHaveAttribute('aria-invalid', 'true');
  });

  test('show/hide password toggles the input type', async ({ page }) => {
    await page.goto('/auth');
    await waitForHydration(page);
    const pw = page.getByLabel('Password', { exact: true });
    await expect(pw).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(pw).toHaveAttribute('type', 'text');
  });

  test('wrong password shows the Login failed toast', async ({ page }) => {
    await signInStaff(page, ADMIN.username, 'wrong-password');
    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('Login failed');
    await expect(toast).toContainText('Invalid username or password');
  });

  test('admin signs in, lands on the dashboard, and /auth then redirects', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await signInStaff(page);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByTestId('toast')).toContainText(`Welcome back, ${ADMIN.username}!`);
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  });

  test('sign-out ends the session on the server', async ({ page, baseURL }) => {
    await signInStaff(page);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    const status = await page.evaluate(async () => (await fetch('/api/logout', { method: 'POST' })).status);
    expect(status).toBe(200);
    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL(`${baseURL}/auth?next=%2Fadmin%2Fdashboard`);
  });
});

test.describe('client sign-in (/client/login)', () => {
  test('validation messages and failed sign-in', async ({ page }) => {
    await page.goto('/client/login');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Username is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await page.getByLabel('Username').fill('nobody');
    await page.getByLabel('Password', { exact: true }).fill('whatever');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('toast')).toContainText('Login failed');
  });
});

test.describe('not found', () => {
  test('unknown paths answer 404 with the exact texts', async ({ page }) => {
    const res = await page.goto('/no/such/page');
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
    await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  });
});
