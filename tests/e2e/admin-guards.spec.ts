import type { Request } from '@playwright/test';
import { test, expect, signInStaff } from './fixtures.ts';
import { createStaffUser, islandsReady } from './admin-helpers.ts';
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

test.describe('a custom role (issue 53)', () => {
  test('an "Editor" (view, upload and edit media) lands on Media, the menus lead there, the badge names the role, and no API answers 403', async ({ page, server }) => {
    test.setTimeout(120_000);
    const editor = await createStaffUser(server, { permissions: ['view:media', 'upload:media', 'edit:media'], roleName: 'Editor' });
    // Every API answer the pages get (the event stream aside, which stays open).
    const answers: string[] = [];
    const pending = new Set<Request>();
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/') && !url.pathname.startsWith('/api/live/stream')) pending.add(r);
    });
    const settle = (r: Request) => pending.delete(r);
    page.on('requestfailed', settle);
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.pathname.startsWith('/api/')) answers.push(`${res.status()} ${res.request().method()} ${url.pathname}`);
      settle(res.request());
    });
    const quiet = async () => {
      await islandsReady(page);
      await expect.poll(() => pending.size).toBe(0);
    };

    await signInStaff(page, editor.username, editor.password);
    await expect(page).toHaveURL(/\/admin\/media$/);
    await expect(page.getByRole('heading', { name: 'Media Management' })).toBeVisible();
    await quiet();
    const header = page.getByTestId('admin-nav');
    await expect(header.getByTestId('admin-role')).toHaveText('Editor');
    await expect(header.getByTestId('admin-home-link')).toHaveAttribute('href', '/admin/media');
    const nav = page.getByRole('navigation', { name: 'Admin', exact: true });
    await expect(nav.getByRole('link')).toHaveText(['Dashboard', 'Media', 'Galleries']);

    // A gallery to open, made as this user may.
    const made = await page.request.post('/api/galleries', { headers: { Origin: server.url }, data: { title: 'Editor proofs', mediaIds: [] } });
    expect(made.status()).toBe(201);
    const gallery = (await made.json()) as { id: number };

    for (const [link, url, heading] of [
      ['Dashboard', /\/admin\/media$/, 'Media Management'],
      ['Galleries', /\/admin\/galleries$/, 'Galleries'],
      ['Media', /\/admin\/media$/, 'Media Management'],
    ] as const) {
      await nav.getByRole('link', { name: link }).click();
      await expect(page).toHaveURL(url);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await quiet();
    }
    // /admin itself, and the gallery with each of its tabs.
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/admin\/media$/);
    await quiet();
    await page.goto(`/admin/galleries/${gallery.id}`);
    await quiet();
    for (const tab of await page.getByRole('tab').all()) {
      await tab.click();
      await quiet();
    }
    // The public site's account menu leads back to the same page.
    await page.goto('/');
    await islandsReady(page);
    await page.getByTestId('user-menu-button').click();
    await page.getByRole('menuitem', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL(/\/admin\/media$/);
    await quiet();

    expect(answers.length).toBeGreaterThan(5);
    expect(answers.filter((a) => a.startsWith('403 ') || a.startsWith('401 '))).toEqual([]);
  });
});
