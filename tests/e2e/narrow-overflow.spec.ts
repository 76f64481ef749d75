// Issue 19 #13: at 375 px no admin or portal screen scrolls sideways, even with 170-character
// unbroken names (media titles, client names and companies, user names, enquiries, roles,
// the company name), and the full text stays available in a tooltip.
import { test, expect, ADMIN } from './fixtures.ts';
import { createStaffUser, insertMedia, islandsReady, signInAs } from './admin-helpers.ts';
import { createClientWithPortalLogin, createImage } from '../helpers/portal-fixtures.ts';
import { bumpSiteVersion } from '../helpers/public-media.ts';

const LONG = 'Supercalifragilistic'.repeat(9).slice(0, 170);
const ADMIN_SCREENS = ['/admin/dashboard', '/admin/media', '/admin/clients', '/admin/enquiries', '/admin/website-customization', '/admin/roles', '/admin/users'];

test.use({ viewport: { width: 375, height: 800 } });

let portal: { username: string; password: string };

test.beforeAll(async ({ server }) => {
  const sql = server.sql;
  await sql.execute({ sql: 'UPDATE branding_settings SET company_name = ?', args: [LONG.slice(0, 100)] });
  await bumpSiteVersion(sql);
  await insertMedia(server, { title: `${LONG}-image`, tags: [LONG.slice(0, 50)], stage: 'post-production', notes: LONG, featured: true });
  await insertMedia(server, { title: `${LONG}-video`, type: 'video' });
  const login = await createClientWithPortalLogin(server, LONG);
  await sql.execute({ sql: 'UPDATE clients SET company = ?, email = ? WHERE id = ?', args: [LONG, `${LONG.toLowerCase()}@example.test`, login.clientId] });
  await createImage(server, { title: `${LONG}-portal`, clientId: login.clientId, notes: LONG, tags: [LONG.slice(0, 50)] });
  portal = login;
  await createStaffUser(server, { permissions: ['view:media'], displayName: LONG });
  await sql.execute({
    sql: "INSERT INTO enquiries (first_name, last_name, email, project_type, message) VALUES (?, ?, ?, 'corporate', ?)",
    args: [LONG.slice(0, 100), LONG.slice(0, 100), `${LONG.slice(0, 60)}@example.test`, LONG],
  });
  await sql.execute({ sql: 'INSERT INTO roles (name, description) VALUES (?, ?)', args: [LONG.slice(0, 100), LONG] });
  await sql.execute({ sql: 'INSERT INTO permissions (name, description) VALUES (?, ?)', args: [`export:${'x'.repeat(60)}`, LONG] });
});

async function expectNoSidewaysScroll(page: import('@playwright/test').Page, label: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth, `${label}: page is ${scrollWidth}px wide in a ${clientWidth}px window`).toBeLessThanOrEqual(clientWidth);
}

for (const path of ADMIN_SCREENS) {
  test(`${path} does not scroll sideways at 375 px`, async ({ page }) => {
    await signInAs(page, ADMIN.username, ADMIN.password, path);
    await islandsReady(page);
    // Let data loaded after hydration (stats, lists) render.
    await page.waitForLoadState('networkidle');
    await expectNoSidewaysScroll(page, path);
  });
}

test('/admin/media keeps the full long title in a tooltip', async ({ page }) => {
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  await islandsReady(page);
  await expect(page.locator(`[title="${LONG}-image"]`).first()).toBeAttached();
});

test('/admin/clients keeps the full long name and company in tooltips', async ({ page }) => {
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/clients');
  await islandsReady(page);
  await page.waitForLoadState('networkidle');
  await expect(page.locator(`[title="${LONG}"]`).first()).toBeAttached();
});

test('the client portal does not scroll sideways at 375 px', async ({ page }) => {
  await page.request.post('/api/client/login', { data: { username: portal.username, password: portal.password } });
  await page.goto('/client/dashboard');
  await islandsReady(page);
  await page.waitForLoadState('networkidle');
  await expectNoSidewaysScroll(page, '/client/dashboard');
  await page.getByText(`${LONG}-portal`).first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectNoSidewaysScroll(page, 'portal media dialog');
});

test('the sign-in pages do not scroll sideways at 375 px', async ({ page }) => {
  for (const path of ['/auth', '/client/login']) {
    await page.goto(path);
    await expectNoSidewaysScroll(page, path);
  }
});
