import { test, expect, ADMIN } from './fixtures.ts';
import { staffSession } from '../helpers/http.ts';
import { signInStaff, submitStaffLogin, toast } from './accounts-helpers.ts';


test.describe('User Management (/admin/users)', () => {
  test('create a user with roles, sign in as them, deactivate them and see sign-in refused', async ({ page, browser, server }) => {
    await signInStaff(page);
    await page.goto('/admin/users');
    await expect(page.getByRole('heading', { name: 'User Management', level: 1 })).toBeVisible();
    await expect(page.getByText('Manage users, roles, and permissions')).toBeVisible();
    for (const col of ['User', 'Roles', 'Status', 'Created', 'Actions']) await expect(page.getByRole('columnheader', { name: col })).toBeVisible();
    await expect(page.getByTestId('user-row').filter({ hasText: ADMIN.email })).toContainText('Admin');

    await page.getByRole('button', { name: 'Add User' }).first().click();
    const create = page.getByRole('dialog', { name: 'Create New User' });
    await create.getByLabel('First Name').fill('Grace');
    await create.getByLabel('Last Name').fill('Hopper');
    await expect(create.getByLabel('Display Name')).toHaveValue('Grace Hopper');
    await create.getByLabel('Username').fill('grace');
    await create.getByLabel('Email').fill('grace@studio.test');
    await create.getByLabel('Password', { exact: true }).fill('cobol-and-compilers-1959');
    await create.getByLabel('Confirm Password').fill('cobol-and-compilers-1958');
    await create.getByRole('button', { name: 'Create User' }).click();
    await expect(create.getByText("Passwords don't match")).toBeVisible();
    await create.getByLabel('Confirm Password').fill('cobol-and-compilers-1959');
    await create.getByRole('button', { name: 'Create User' }).click();
    await expect(toast(page)).toContainText('User created');
    await expect(toast(page)).toContainText('New user has been successfully created.');
    const row = page.getByTestId('user-row').filter({ hasText: 'grace@studio.test' });
    await expect(row).toContainText('Grace Hopper');
    await expect(row).toContainText('No roles assigned');
    await expect(row).toContainText('Active');

    await row.getByRole('button', { name: 'Edit grace' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await edit.getByRole('checkbox', { name: /^Staff/ }).check();
    await edit.getByRole('button', { name: 'Update User' }).click();
    await expect(toast(page)).toContainText('User updated');
    await expect(row).toContainText('Staff');
    await expect(row).not.toContainText('No roles assigned');

    // Grace signs in with her own browser and lands in the admin area (Staff role).
    const theirs = await browser.newContext({ baseURL: server.url });
    const gp = await theirs.newPage();
    await signInStaff(gp, 'grace', 'cobol-and-compilers-1959');
    await expect(gp).toHaveURL(/\/admin\/dashboard$/);

    // Deactivated: her open session ends and a new sign-in is refused.
    await row.getByRole('button', { name: 'Edit grace' }).click();
    await edit.getByLabel('Account Active').uncheck();
    await edit.getByRole('button', { name: 'Update User' }).click();
    await expect(toast(page)).toContainText('User updated');
    await expect(row).toContainText('Inactive');
    await gp.goto('/admin/dashboard');
    await expect(gp).toHaveURL(/\/auth\?next=%2Fadmin%2Fdashboard$/);
    await submitStaffLogin(gp, 'grace', 'cobol-and-compilers-1959');
    await expect(toast(gp)).toContainText('Login failed');
    await expect(gp).toHaveURL(/\/auth$/);
    await theirs.close();
  });

  test('edit validates the new password; delete asks with the exact text', async ({ page, server }) => {
    const admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
    const body = { username: 'temp.user', email: 'temp@studio.test', password: 'temp-user-password', forename: 'Temp', surname: 'User', displayName: 'Temp User' };
    expect((await admin.json('POST', '/api/users', body)).status).toBe(201);
    await signInStaff(page);
    await page.goto('/admin/users');
    const row = page.getByTestId('user-row').filter({ hasText: 'temp@studio.test' });
    await row.getByRole('button', { name: 'Edit temp.user' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await expect(edit.getByLabel('New Password', { exact: true })).toHaveAttribute('placeholder', 'Leave empty to keep current');
    await edit.getByLabel('New Password', { exact: true }).fill('abc');
    await edit.getByLabel('Confirm New Password').fill('abc');
    await edit.getByRole('button', { name: 'Update User' }).click();
    await expect(edit.getByText('Password must be at least 15 characters')).toBeVisible();
    await edit.getByRole('button', { name: 'Cancel' }).click();

    await row.getByRole('button', { name: 'Delete temp.user' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete User' });
    await expect(confirm).toContainText('Are you sure you want to delete the user "temp.user"? This action cannot be undone.');
    await confirm.getByRole('button', { name: 'Delete User' }).click();
    await expect(toast(page)).toContainText('User deleted');
    await expect(row).toHaveCount(0);
    // Your own row cannot be deleted.
    await expect(page.getByRole('button', { name: `Delete ${ADMIN.username}` })).toBeDisabled();
  });

  test('works at 375 px with the keyboard', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await signInStaff(page);
    await page.goto('/admin/users');
    await expect(page.getByTestId('user-row').first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Add User' }).first().focus();
    await page.keyboard.press('Enter');
    const create = page.getByRole('dialog', { name: 'Create New User' });
    await expect(create).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(create).toBeHidden();
  });
});
