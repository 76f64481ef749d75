import { test, expect, ADMIN } from './fixtures.ts';
import type { Page } from '@playwright/test';
import type { TestServer } from '../helpers/server.ts';
import { count, createClient, insertMedia, signInAs } from './admin-helpers.ts';

const STAT_QUERIES: [string, string][] = [
  ['stat-total-media', 'SELECT COUNT(*) FROM media'],
  ['stat-active-clients', 'SELECT COUNT(*) FROM clients WHERE is_active = 1'],
  ['stat-staff-members', 'SELECT COUNT(*) FROM users WHERE is_active = 1'],
  ['stat-featured-media', 'SELECT COUNT(*) FROM media WHERE is_featured = 1'],
  ['stat-new-enquiries', "SELECT COUNT(*) FROM enquiries WHERE status = 'new'"],
  ['stat-total-roles', 'SELECT COUNT(*) FROM roles'],
  ['stat-total-permissions', 'SELECT COUNT(*) FROM permissions'],
  ['stat-featured-content', 'SELECT COUNT(*) FROM media WHERE is_featured = 1'],
  ['stat-changes-requested', "SELECT COUNT(*) FROM media m JOIN media_versions v ON v.storage_key = m.storage_key WHERE v.approval_status = 'changes_requested'"],
];

async function expectCountsMatchDb(page: Page, server: TestServer) {
  for (const [id, sql] of STAT_QUERIES) {
    await expect(page.getByTestId(id), id).toHaveText(String(await count(server, sql)));
  }
}

test.describe('admin dashboard', () => {
  test('texts, skeletons while loading, then counts equal to the database', async ({ page, server }) => {
    await page.route('**/api/stats', async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.request.post('/api/login', { data: { username: ADMIN.username, password: ADMIN.password } });
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('heading', { name: 'Admin Dashboard', level: 1 })).toBeVisible();
    await expect(page.getByText('Manage your cinematic media production platform')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Statistics' }).getByTestId('skeleton')).toHaveCount(4);
    await expectCountsMatchDb(page, server);
    await expect(page.getByRole('region', { name: 'Statistics' }).getByTestId('skeleton')).toHaveCount(0);
  });

  test('counts follow changes in the database', async ({ page, server }) => {
    await signInAs(page, ADMIN.username, ADMIN.password);
    await expectCountsMatchDb(page, server);
    const before = Number(await page.getByTestId('stat-total-media').textContent());
    const featuredBefore = Number(await page.getByTestId('stat-featured-media').textContent());
    await insertMedia(server, { title: 'Count me', featured: true });
    await insertMedia(server, { title: 'Count me too' });
    await createClient(server, 'Active Co');
    await createClient(server, 'Dormant Co', false);
    await server.sql.execute("INSERT INTO enquiries (first_name, last_name, email, message) VALUES ('A', 'B', 'a@b.test', 'Hi')");
    const sentBack = await insertMedia(server, { title: 'Sent back' });
    await server.sql.execute({ sql: "UPDATE media_versions SET approval_status = 'changes_requested' WHERE media_id = ?", args: [sentBack] });
    await page.reload();
    await expectCountsMatchDb(page, server);
    await expect(page.getByTestId('stat-total-media')).toHaveText(String(before + 3));
    await expect(page.getByTestId('stat-featured-media')).toHaveText(String(featuredBefore + 1));
  });

  test('links of the stat cards, quick actions and System Overview', async ({ page }) => {
    await signInAs(page, ADMIN.username, ADMIN.password);
    const expectations: [string, string][] = [
      ['Total Media', '/admin/media'],
      ['Active Clients', '/admin/clients'],
      ['New Enquiries', '/admin/enquiries'],
      ['Changes requested', '/admin/media?approval=changes_requested'],
      ['Upload Media', '/admin/media?upload=true'],
      ['Manage Clients', '/admin/clients'],
      ['Manage Users', '/admin/users'],
      ['Roles & Permissions', '/admin/roles'],
      ['Website Customization', '/admin/website-customization'],
      ['View Portfolio', '/portfolio'],
      ['Upload New Media', '/admin/media?upload=true'],
      ['Add New User', '/admin/users'],
    ];
    for (const [name, href] of expectations) {
      await expect(page.locator('main').getByRole('link', { name: new RegExp(`^${name.replace(/[&]/g, '\\$&')}`) }).first(), name).toHaveAttribute('href', href);
    }
    await expect(page.getByText('Background images')).toBeVisible();
  });

  test('Recent Media Uploads: empty text, then the 5 newest with type and Featured badge', async ({ page, server }) => {
    await server.sql.execute('DELETE FROM media');
    await signInAs(page, ADMIN.username, ADMIN.password);
    await expect(page.getByText('No media uploaded yet')).toBeVisible();
    const base = Date.now() - 60_000;
    for (let i = 1; i <= 6; i++) {
      await insertMedia(server, { title: `Recent ${i}`, type: i % 2 ? 'image' : 'video', featured: i === 5, createdAt: base + i * 1000 });
    }
    await page.reload();
    const list = page.getByTestId('recent-media');
    await expect(list.getByRole('listitem')).toHaveCount(5);
    await expect(list.getByRole('listitem').locator('span.truncate')).toHaveText(['Recent 6', 'Recent 5', 'Recent 4', 'Recent 3', 'Recent 2']);
    await expect(list.getByRole('listitem').nth(1)).toContainText('Featured');
    await expect(list.getByRole('listitem').nth(0)).not.toContainText('Featured');
    // 001 §2 lists the type apart from the icon, so it is visible text; the icon is decoration.
    await expect(list.getByTestId('recent-media-type')).toHaveText(['Video', 'Image', 'Video', 'Image', 'Video']);
    await expect(list.getByTestId('recent-media-type').first()).toBeVisible();
    await expect(list.getByTestId('recent-media-icon').locator('svg')).toHaveCount(5);
  });

  test('a Staff user may open the dashboard and read the stats', async ({ page, server }) => {
    await server.sql.execute({
      sql: 'INSERT INTO users (id, username, email, password_hash) VALUES (?, ?, ?, (SELECT password_hash FROM users WHERE username = ?))',
      args: [crypto.randomUUID(), 'dash.staff', 'dash.staff@studio.test', ADMIN.username],
    });
    await server.sql.execute("INSERT INTO user_roles (user_id, role_id) SELECT u.id, r.id FROM users u, roles r WHERE u.username = 'dash.staff' AND r.name = 'Staff'");
    await signInAs(page, 'dash.staff', ADMIN.password);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expectCountsMatchDb(page, server);
  });
});
