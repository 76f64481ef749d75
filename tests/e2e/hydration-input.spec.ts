// Input made before an island has hydrated is kept (issue 22): on a slow phone the HTML is
// usable for seconds before React arrives. Each test holds back the island's script with
// page.route, types (or clicks) while the island is still server HTML, then lets the script
// through and checks that what was typed is what gets used.
import type { Page } from '@playwright/test';
import { test, expect, ADMIN } from './fixtures.ts';
import { createClientWithPortalLogin } from '../helpers/portal-fixtures.ts';

/** Holds the island's component script until `release()`; `island` is its <astro-island>. */
async function holdIsland(page: Page, component: string) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(new RegExp(`/_astro/${component}\\.[^/]+\\.js$`), async (route) => {
    await held;
    await route.continue();
  });
  const island = page.locator(`astro-island[component-url*="/${component}."]`);
  return {
    island,
    /** Still server HTML: asserted after typing, so the typing provably came first. */
    expectNotHydrated: () => expect(island).toHaveAttribute('ssr'),
    release: async () => {
      release();
      await expect(island).not.toHaveAttribute('ssr');
    },
  };
}

test('the enquiry form keeps everything typed before hydration and sends it', async ({ page, server }) => {
  const held = await holdIsland(page, 'EnquiryForm');
  await page.goto('/contact');
  await page.getByLabel('First Name').fill('Ada');
  await page.getByLabel('Last Name').fill('Lovelace');
  await page.getByLabel('Email').fill('ada@engine.test');
  await page.getByLabel('Project Type').selectOption('documentary');
  await page.getByLabel('Message').fill('A film about the engine');
  // Not yet usable, and it shows: a press of Send would do nothing (nor submit natively).
  await expect(page.getByRole('button', { name: 'Send Message' })).toBeDisabled();
  await held.expectNotHydrated();

  await held.release();
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Message sent!' })).toBeVisible();
  const rows = await server.sql.execute('SELECT first_name, last_name, email, project_type, message FROM enquiries');
  expect(rows.rows.map((r) => ({ ...r }))).toEqual([
    { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@engine.test', project_type: 'documentary', message: 'A film about the engine' },
  ]);
});

test('staff sign-in keeps the username and password typed before hydration', async ({ page }) => {
  const held = await holdIsland(page, 'StaffLogin');
  await page.goto('/auth');
  await page.getByLabel('Username or Email').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  // Enter must not submit the form natively (that would reload the page and lose it all).
  await page.getByLabel('Password', { exact: true }).press('Enter');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeDisabled();
  await held.expectNotHydrated();

  await held.release();
  await expect(page.getByLabel('Username or Email')).toHaveValue(ADMIN.username);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});

test('client sign-in keeps the username and password typed before hydration', async ({ page, server }) => {
  const client = await createClientWithPortalLogin(server, 'Early Typist');
  const held = await holdIsland(page, 'ClientLogin');
  await page.goto('/client/login');
  await page.getByLabel('Username').fill(client.username);
  await page.getByLabel('Password', { exact: true }).fill(client.password);
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeDisabled();
  await held.expectNotHydrated();

  await held.release();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/client\/dashboard$/);
});

test.describe('admin screens', () => {
  test.beforeEach(async ({ page }) => {
    const res = await page.request.post('/api/login', { data: { username: ADMIN.username, password: ADMIN.password } });
    expect(res.status()).toBe(200);
  });

  test('a search typed into the enquiries inbox before hydration is kept and applied', async ({ page, server }) => {
    for (const [first, email] of [
      ['Grace', 'grace@hopper.test'],
      ['Alan', 'alan@turing.test'],
    ]) {
      await server.sql.execute({
        sql: "INSERT INTO enquiries (first_name, last_name, email, project_type, message) VALUES (?, 'Early', ?, '', 'Hello')",
        args: [first!, email!],
      });
    }
    const held = await holdIsland(page, 'EnquiriesInbox');
    await page.goto('/admin/enquiries');
    await page.getByRole('searchbox', { name: 'Search enquiries' }).fill('Grace');
    await held.expectNotHydrated();

    await held.release();
    await expect(page.getByTestId('enquiry-row')).toHaveCount(1);
    await expect(page.getByTestId('enquiry-row')).toContainText('Grace Early');
    await expect(page.getByRole('searchbox', { name: 'Search enquiries' })).toHaveValue('Grace');
  });

  test('Add User pressed before hydration opens its dialog once the island is ready; what is typed there is saved', async ({ page, server }) => {
    const held = await holdIsland(page, 'UserManagement');
    await page.goto('/admin/users');
    const add = page.getByRole('button', { name: 'Add User' }).first();
    // Shown as not ready rather than silently ignoring the press.
    await expect(add).toBeDisabled();
    await held.expectNotHydrated();
    const pressed = add.click();
    await held.release();
    await pressed;

    const dialog = page.getByRole('dialog', { name: 'Create New User' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('First Name').fill('Early');
    await dialog.getByLabel('Last Name').fill('Bird');
    await dialog.getByLabel('Username').fill('early.bird');
    await dialog.getByLabel('Email').fill('early@bird.test');
    await dialog.getByLabel('Display Name').fill('Early Bird');
    await dialog.getByLabel('Password', { exact: true }).fill('worm-catcher-early-1');
    await dialog.getByLabel('Confirm Password').fill('worm-catcher-early-1');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await expect(dialog).toBeHidden();
    const row = await server.sql.execute("SELECT email, display_name FROM users WHERE username = 'early.bird'");
    expect(row.rows.map((r) => ({ ...r }))).toEqual([{ email: 'early@bird.test', display_name: 'Early Bird' }]);
  });
});
