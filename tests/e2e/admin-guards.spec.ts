import { test, expect, signInStaff } from './fixtures.ts';
import { hashPassword } from '../../src/server/auth/password.ts';

// Each route with a heading only its own page shows.
const PAGES: [string, string][] = [
  ['/admin/dashboard', 'Admin Dashboard'],
  ['/admin/users', 'User Management'],
  ['/admin/clients', 'Client Management'],
  ['/admin/roles', 'Roles &amp; Permissions'],
  ['/admin/media', 'Media Management'],
  ['/admin/website-customization', 'Website Customization'],
  ['/admin/enquiries', 'Enquiries'],
];
const ROUTES = PAGES.map(([r]) => r);

test.describe('admin route guards (server-side)', () => {
  for (const route of ROUTES) {
    test(`${route} redirects to /auth when signed out, asking to come back`, async ({ page, baseURL }) => {
      const res = await page.request.get(route, { maxRedirects: 0 });
      expect(res.status()).toBe(302);
      expect(res.headers()['location']).toBe(`/auth?next=${encodeURIComponent(route)}`);
      await page.goto(route);
      await expect(page).toHaveURL(`${baseURL}/auth?next=${encodeURIComponent(route)}`);
    });
  }

  test('a signed-in user without roles or permissions sees the Access Denied texts', async ({ page, server }) => {
    const hash = await hashPassword('no-roles-pass');
    await server.sql.execute({
      sql: "INSERT OR IGNORE INTO users (id, username, email, password_hash) VALUES ('u-noroles', 'noroles', 'noroles@studio.test', ?)",
      args: [hash],
    });
    await signInStaff(page, 'noroles', 'no-roles-pass');
    // No Admin/Staff role: the landing page is the public home.
    await expect(page).toHaveURL(/\/$/);

    const dash = await page.goto('/admin/dashboard');
    expect(dash?.status()).toBe(403);
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
    await expect(page.getByText("You don't have the required role to access this page.")).toBeVisible();

    expect(await page.content()).not.toContain('Admin Dashboard');
    for (const [route, heading] of PAGES.slice(1)) {
      const res = await page.goto(route);
      expect(res?.status(), route).toBe(403);
      await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
      await expect(page.getByText("You don't have the required permission to access this page.")).toBeVisible();
      // The protected page's own content is never sent.
      expect(await page.content()).not.toContain(heading);
    }
  });
});
