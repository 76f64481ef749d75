import { test, expect, ADMIN } from './fixtures.ts';
import type { Locator, Page } from '@playwright/test';
import { staffSession } from '../helpers/http.ts';
import { hydrated, signInStaff, toast } from './accounts-helpers.ts';
const zone = (page: Page, role: string) => page.locator(`[data-testid="role-zone"][data-role="${role}"]`);
const permission = (page: Page, name: string) => page.locator(`[data-testid="permission-item"][data-permission="${name}"]`);

async function center(l: Locator) {
  const box = (await l.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** A real mouse drag: press, move past the 3 px threshold, glide to the target, release. */
async function mouseDrag(page: Page, from: Locator, to: Locator) {
  await from.scrollIntoViewIfNeeded();
  const a = await center(from);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(a.x + 5, a.y + 5, { steps: 2 });
  await to.scrollIntoViewIfNeeded().catch(() => {});
  const b = await center(to);
  await page.mouse.move(b.x, b.y, { steps: 10 });
  await page.mouse.up();
}

/** A keyboard drag: Space picks up, arrows move 25 px a press, Space drops. */
async function keyboardDrag(page: Page, from: Locator, to: Locator) {
  await to.scrollIntoViewIfNeeded();
  const a = await center(from);
  const b = await center(to);
  await from.focus();
  await page.keyboard.press('Space');
  const press = async (key: string, n: number) => {
    for (let i = 0; i < n; i++) await page.keyboard.press(key);
  };
  const dx = Math.round((b.x - a.x) / 25);
  const dy = Math.round((b.y - a.y) / 25);
  await press(dx < 0 ? 'ArrowLeft' : 'ArrowRight', Math.abs(dx));
  await press(dy < 0 ? 'ArrowUp' : 'ArrowDown', Math.abs(dy));
  await page.keyboard.press('Space');
}

test.describe('Roles & Permissions (/admin/roles)', () => {
  // A fresh, empty role per test to drop permissions on.
  let name = '';
  test.beforeEach(async ({ page, server }) => {
    const admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
    name = `Editors ${test.info().testId.slice(-6)}`;
    expect((await admin.json('POST', '/api/roles', { name, description: 'Edit things' })).status).toBe(201);
    // Tall enough that every role and permission is on screen: the keyboard drag steps by pixels.
    await page.setViewportSize({ width: 1280, height: 1800 });
    await signInStaff(page);
    await page.goto('/admin/roles');
    await hydrated(page, '[data-testid="role-zone"]');
    await expect(zone(page, name)).toBeVisible();
  });

  test('drag a permission onto a role with the mouse; it survives a reload; trash removes it', async ({ page }) => {
    const role = zone(page, name);
    await mouseDrag(page, permission(page, 'view:enquiries'), role);
    await expect(toast(page)).toContainText('Permission assigned');
    await expect(role).toContainText('view:enquiries');
    await page.reload();
    await expect(role).toContainText('view:enquiries');

    await role.getByRole('button', { name: `Remove view:enquiries from ${name}` }).click();
    await expect(toast(page)).toContainText('Permission removed');
    await expect(role).not.toContainText('view:enquiries');
    await page.reload();
    await expect(role.getByText('Drop permissions here')).toBeVisible();
  });

  test('drag a permission onto a role with the keyboard; it survives a reload', async ({ page }) => {
    const target = zone(page, name);
    await keyboardDrag(page, permission(page, 'edit:website'), target);
    await expect(toast(page)).toContainText('Permission assigned');
    await expect(target).toContainText('edit:website');
    await page.reload();
    await expect(target).toContainText('edit:website');
  });

  test('the protected Client role refuses a drop and offers no edits', async ({ page, server }) => {
    const client = zone(page, 'Client');
    await expect(client).toContainText('Read Only');
    await expect(client).toContainText('Protected role - no permissions');
    await expect(client.getByRole('button', { name: 'Edit role Client' })).toBeDisabled();
    await expect(client.getByRole('button', { name: 'Delete role Client' })).toBeDisabled();
    const sent: string[] = [];
    page.on('request', (r) => r.method() !== 'GET' && r.url().includes('/api/') && sent.push(`${r.method()} ${new URL(r.url()).pathname}`));
    await mouseDrag(page, permission(page, 'view:media'), client);
    // The same drag onto an ordinary role right after is accepted (so the refusal is the role's
    // doing), and its toast marks the point by which the first drop's request and toast would
    // have shown: the only request and the only toast are the second drop's.
    await mouseDrag(page, permission(page, 'view:media'), zone(page, name));
    await expect(toast(page)).toContainText('Permission assigned');
    await expect(zone(page, name)).toContainText('view:media');
    await expect(toast(page)).toHaveCount(1);
    const ordinary = Number((await server.sql.execute({ sql: 'select id from roles where name = ?', args: [name] })).rows[0]!.id);
    expect(sent).toEqual([expect.stringMatching(new RegExp(`^POST /api/roles/${ordinary}/permissions/\\d+$`))]);
    await expect(client).not.toContainText('view:media');
    await page.reload();
    await expect(client).toContainText('Protected role - no permissions');
    const rows = await server.sql.execute("select count(*) as n from role_permissions rp join roles r on r.id = rp.role_id where r.name = 'Client'");
    expect(Number(rows.rows[0]!.n)).toBe(0);
  });

  test('how-to panel, create/edit/delete a role, create a permission', async ({ page }) => {
    const howTo = page.locator('details', { hasText: 'How to use' });
    await expect(howTo).toHaveAttribute('open', '');
    await expect(howTo).toContainText('the trash icon');
    await howTo.locator('summary').click();
    await expect(howTo).not.toHaveAttribute('open', '');

    await page.getByRole('button', { name: 'Add Role' }).first().click();
    const create = page.getByRole('dialog', { name: 'Create New Role' });
    await create.getByLabel('Name').fill('Producers');
    await create.getByLabel('Description').fill('Run the shoots');
    await create.getByRole('button', { name: 'Create Role' }).click();
    await expect(toast(page)).toContainText('Role created');
    await expect(zone(page, 'Producers')).toContainText('Run the shoots');

    await page.getByRole('button', { name: 'Add Role' }).first().click();
    await create.getByLabel('Name').fill('producers');
    await create.getByRole('button', { name: 'Create Role' }).click();
    await expect(toast(page)).toContainText('Failed to create role');
    await expect(toast(page)).toContainText('already exists');
    await create.getByRole('button', { name: 'Cancel' }).click();

    await zone(page, 'Producers').getByRole('button', { name: 'Edit role Producers' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Role' });
    await expect(edit.getByLabel('Name')).toHaveValue('Producers');
    await edit.getByLabel('Name').fill('Lead Producers');
    await edit.getByRole('button', { name: 'Update Role' }).click();
    await expect(toast(page)).toContainText('Role updated');

    page.once('dialog', async (d) => {
      expect(d.message()).toBe('Are you sure you want to delete this role?');
      await d.accept();
    });
    await zone(page, 'Lead Producers').getByRole('button', { name: 'Delete role Lead Producers' }).click();
    await expect(toast(page)).toContainText('Role deleted');
    await expect(zone(page, 'Lead Producers')).toHaveCount(0);

    await page.getByRole('button', { name: 'Add Permission' }).first().click();
    const perm = page.getByRole('dialog', { name: 'Create New Permission' });
    await perm.getByLabel('Name').fill('Export Reports');
    await perm.getByRole('button', { name: 'Create Permission' }).click();
    await expect(perm.getByText("Name must look like 'verb:resource'")).toBeVisible();
    await perm.getByLabel('Name').fill('export:reports');
    await perm.getByLabel('Description').fill('Download reports');
    await perm.getByRole('button', { name: 'Create Permission' }).click();
    await expect(toast(page)).toContainText('Permission created');
    await expect(permission(page, 'export:reports')).toContainText('Download reports');
  });

  test('at 375 px the permissions list sits below the roles', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.reload();
    const lastRole = page.getByTestId('role-zone').last();
    await expect(lastRole).toBeVisible();
    const rolesBottom = (await lastRole.boundingBox())!;
    const list = (await page.getByRole('heading', { name: 'Available Permissions' }).boundingBox())!;
    expect(list.y).toBeGreaterThan(rolesBottom.y + rolesBottom.height - 1);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
