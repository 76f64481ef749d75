import { test, expect, ADMIN } from './fixtures.ts';
import { staffSession } from '../helpers/http.ts';
import { signInStaff, submitClientLogin as signInClient, toast } from './accounts-helpers.ts';

test.describe('Client Management (/admin/clients)', () => {
  // The file's server is shared by these tests; each starts from no clients.
  test.beforeEach(async ({ server }) => {
    await server.sql.execute('delete from client_users');
    await server.sql.execute('delete from clients');
  });

  test('create a client with credentials, sign in at /client/login, reset the password', async ({ page, browser, server }) => {
    await signInStaff(page);
    await page.goto('/admin/clients');
    await expect(page.getByRole('heading', { name: 'Client Management', level: 1 })).toBeVisible();
    await expect(page.getByText('Manage client accounts and information (0 of 0 clients)')).toBeVisible();
    await expect(page.getByText('No clients found')).toBeVisible();
    await expect(page.getByText('Get started by adding your first client')).toBeVisible();

    await page.getByRole('button', { name: 'Add First Client' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Client' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByText('Name is required')).toBeVisible();
    await dialog.getByLabel('Name', { exact: true }).fill('Harbour Films');
    await dialog.getByLabel('Email').fill('team@harbour.test');
    await expect(dialog.getByLabel('Email')).toHaveAttribute('type', 'email');
    await dialog.getByLabel('Phone').fill('0116 222 3333');
    await dialog.getByLabel('Company').fill('Harbour Ltd');
    await dialog.getByLabel('Notes').fill('Wedding season 2026');
    await dialog.getByLabel('Username', { exact: true }).fill('harbour');
    await dialog.getByLabel('Password', { exact: true }).fill('first-pass-1');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(toast(page)).toContainText('Client created successfully');
    const card = page.getByTestId('client-card').filter({ hasText: 'Harbour Films' });
    await expect(card).toContainText('team@harbour.test');
    await expect(card).toContainText('Client');
    await expect(card).toContainText('Harbour Ltd');
    await expect(card).toContainText(/Added /);
    await expect(page.getByText('(1 of 1 clients)')).toBeVisible();

    const theirs = await browser.newContext({ baseURL: server.url });
    const cp = await theirs.newPage();
    await signInClient(cp, 'harbour', 'first-pass-1');
    await expect(cp).toHaveURL(/\/client\/dashboard$/);

    await card.getByRole('button', { name: 'Edit Harbour Films' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Client' });
    await expect(edit.getByRole('button', { name: 'Update' })).toBeVisible();
    await edit.getByLabel('Reset client password').check();
    await expect(edit.getByRole('button', { name: 'Reset Password' })).toBeVisible();
    await edit.getByLabel('New Password').fill('second-pass-2');
    await edit.getByRole('button', { name: 'Reset Password' }).click();
    await expect(toast(page)).toContainText('Password reset successfully');

    // The client's open session has ended: the open tab lands on the sign-in page, by itself
    // (its event stream hears of it, and a load of ours would be cut short) or on a reload. The
    // old password is refused, the new one works.
    await expect(async () => {
      if (!/\/client\/login$/.test(cp.url())) await cp.goto('/client/dashboard');
      expect(cp.url()).toMatch(/\/client\/login$/);
    }).toPass({ timeout: 15_000 });
    await signInClient(cp, 'harbour', 'first-pass-1');
    await expect(toast(cp)).toContainText('Login failed');
    await signInClient(cp, 'harbour', 'second-pass-2');
    await expect(cp).toHaveURL(/\/client\/dashboard$/);
    await theirs.close();
  });

  test('search, company filter, sorts, chips, Clear, and delete', async ({ page, server }) => {
    const admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
    const add = async (name: string, company: string, notes = '') =>
      expect(
        (await admin.json('POST', '/api/clients', { name, email: `${name.toLowerCase().replace(/\W/g, '')}@c.test`, company, notes, phone: '', username: name.toLowerCase().replace(/\W/g, ''), password: 'secret-pw' })).status,
      ).toBe(201);
    await add('Bravo Events', 'Zeta Corp');
    await add('Alpha Weddings', '', 'loves drone shots');
    await add('Charlie Music', 'Acme Records');

    await signInStaff(page);
    await page.goto('/admin/clients');
    const names = () => page.getByTestId('client-card').locator('h2').allTextContents();
    await expect(page.getByTestId('client-card')).toHaveCount(3);
    expect(await names()).toEqual(['Charlie Music', 'Alpha Weddings', 'Bravo Events']);

    await page.getByPlaceholder('Search clients by name, email, company, or notes...').fill('drone');
    await expect(page.getByText('(1 of 3 clients)')).toBeVisible();
    await expect(page.getByText('Active filters:')).toBeVisible();
    await page.getByRole('button', { name: 'Remove filter Search: "drone"' }).click();
    await expect(page.getByText('(3 of 3 clients)')).toBeVisible();
    await expect(page.getByText('Active filters:')).toBeHidden();

    await page.getByLabel('Company filter').selectOption({ label: 'With Company' });
    await expect(page.getByText('(2 of 3 clients)')).toBeVisible();
    await page.getByLabel('Company filter').selectOption({ label: 'No Company' });
    expect(await names()).toEqual(['Alpha Weddings']);
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await expect(page.getByText('(3 of 3 clients)')).toBeVisible();

    const orders: [string, string[]][] = [
      ['Oldest First', ['Bravo Events', 'Alpha Weddings', 'Charlie Music']],
      ['Name A-Z', ['Alpha Weddings', 'Bravo Events', 'Charlie Music']],
      ['Name Z-A', ['Charlie Music', 'Bravo Events', 'Alpha Weddings']],
      ['Company A-Z', ['Charlie Music', 'Bravo Events', 'Alpha Weddings']],
      ['Company Z-A', ['Bravo Events', 'Charlie Music', 'Alpha Weddings']],
      ['Newest First', ['Charlie Music', 'Alpha Weddings', 'Bravo Events']],
    ];
    for (const [label, expected] of orders) {
      await page.getByLabel('Sort clients').selectOption({ label });
      expect(await names(), label).toEqual(expected);
    }

    await page.getByPlaceholder('Search clients by name, email, company, or notes...').fill('nobody-matches');
    await expect(page.getByText('No clients match your filters')).toBeVisible();
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(page.getByTestId('client-card')).toHaveCount(3);

    await page.getByRole('button', { name: 'Delete Bravo Events' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Client' });
    await expect(confirm).toContainText(
      'Are you sure you want to delete Bravo Events? This action cannot be undone and will remove all media assignments for this client.',
    );
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page)).toContainText('Client deleted successfully');
    await expect(page.getByText('(2 of 2 clients)')).toBeVisible();
  });

  test('create, update, reset and delete failures toast their title only (001 §8)', async ({ page, server }) => {
    const admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
    const add = async (name: string, email: string, username: string) => {
      const res = await admin.json('POST', '/api/clients', { name, email, company: '', notes: '', phone: '', username, password: 'secret-pw' });
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    await add('Taken Email', 'taken@c.test', 'taken');
    const goneId = await add('Soon Gone', 'gone@c.test', 'gone');
    const onlyTitle = async (title: string) => {
      await expect(toast(page)).toHaveAttribute('data-variant', 'destructive');
      // The server's reason (e.g. which email clashed) is not shown: one line, the title.
      await expect(toast(page).locator('p')).toHaveText([title]);
    };

    await signInStaff(page);
    await page.goto('/admin/clients');
    await expect(page.getByTestId('client-card')).toHaveCount(2);

    await page.getByRole('button', { name: 'Add Client' }).click();
    const create = page.getByRole('dialog', { name: 'Add New Client' });
    await create.getByLabel('Name', { exact: true }).fill('Clash Films');
    await create.getByLabel('Email').fill('taken@c.test');
    await create.getByLabel('Username', { exact: true }).fill('clash');
    await create.getByLabel('Password', { exact: true }).fill('clash-pass-1');
    await create.getByRole('button', { name: 'Create' }).click();
    await onlyTitle('Failed to create client');
    await create.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Edit Soon Gone' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Client' });
    await edit.getByLabel('Email').fill('taken@c.test');
    await edit.getByRole('button', { name: 'Update' }).click();
    await onlyTitle('Failed to update client');

    // The client disappears behind the open screen: reset and delete then answer 404.
    await server.sql.execute({ sql: 'DELETE FROM clients WHERE id = ?', args: [goneId] });
    await edit.getByLabel('Reset client password').check();
    await edit.getByLabel('New Password').fill('another-pass-2');
    await edit.getByRole('button', { name: 'Reset Password' }).click();
    await onlyTitle('Failed to reset password');
    await edit.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Delete Soon Gone' }).click();
    await page.getByRole('dialog', { name: 'Delete Client' }).getByRole('button', { name: 'Delete' }).click();
    await onlyTitle('Failed to delete client');
  });

  test('six skeleton cards while loading; grid is one column at 375 px', async ({ page }) => {
    await signInStaff(page);
    await page.route('**/api/clients', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/admin/clients');
    await expect(page.locator('[aria-label="Loading clients"] [data-testid="skeleton"]').first()).toBeVisible();
    await expect(page.locator('[aria-label="Loading clients"] > *')).toHaveCount(6);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
