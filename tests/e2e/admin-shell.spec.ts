import { test, expect, ADMIN } from './fixtures.ts';
import { count, createStaffUser, insertMedia, islandsReady, signInAs } from './admin-helpers.ts';

const signInStaff = (page: import('@playwright/test').Page, u = ADMIN.username, p = ADMIN.password) => signInAs(page, u, p);

const ALL_LINKS = ['Dashboard', 'Media', 'Galleries', 'Clients', 'Share links', 'Enquiries', 'Website', 'Roles', 'Users', 'Audit log'];

test.describe('admin navigation bar', () => {
  test('admin sees every link, the company name with the Admin tag, and the user menu', async ({ page }) => {
    await signInStaff(page);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    const nav = page.getByRole('navigation', { name: 'Admin', exact: true });
    await expect(nav.getByRole('link')).toHaveText(ALL_LINKS);
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    const header = page.getByTestId('admin-nav');
    await expect(header.getByTestId('admin-company-name')).toHaveText('Studio');
    await expect(header.getByText('Admin', { exact: true })).toBeVisible();
    await expect(header.getByTestId('admin-home-link')).toHaveAttribute('href', '/admin/dashboard');
    await expect(page.getByTestId('theme-toggle')).toBeVisible();

    await page.getByTestId('user-menu-button').click();
    const menu = page.getByRole('menu', { name: 'User menu' });
    await expect(menu).toContainText(ADMIN.username);
    await expect(menu).toContainText(ADMIN.email);
    await expect(menu.getByRole('menuitem', { name: 'Public Site' })).toHaveAttribute('href', '/');
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
  });

  test('user menu type-ahead: a letter focuses its item; typed text resets 1000 ms after the last key', async ({ page }) => {
    // The page's timers run on a clock the test moves (Playwright's clock), so the gaps between
    // keys are exactly what they say however slow the machine is.
    await page.clock.install();
    await signInStaff(page);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page.getByTestId('user-menu-button').click();
    const menu = page.getByRole('menu', { name: 'User menu' });
    const publicSite = menu.getByRole('menuitem', { name: 'Public Site' });
    const logout = menu.getByRole('menuitem', { name: 'Logout' });
    await expect(publicSite).toBeFocused();
    // Stopped a little ahead of the page's time (which runs on meanwhile); no key is pending yet.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 5000);
    await page.keyboard.press('L');
    await expect(logout).toBeFocused();
    // "lx", then "lxp" 1400 ms after the first key but 700 ms after the last: nothing matches,
    // so focus stays; a timer counted from the first key would have let "p" move it. A key's
    // handler has run when press() returns (the browser acknowledges the event after it).
    await page.clock.runFor(700);
    await page.keyboard.press('x');
    await page.clock.runFor(700);
    await page.keyboard.press('p');
    await expect(logout).toBeFocused();
    // 1000 ms of quiet: "p" starts a new search.
    await page.clock.runFor(1000);
    await page.keyboard.press('p');
    await expect(publicSite).toBeFocused();
    // 999 ms is not quiet enough: "pl" matches nothing, so focus stays (after a reset, "l"
    // alone would move it to Logout).
    await page.clock.runFor(999);
    await page.keyboard.press('l');
    await expect(publicSite).toBeFocused();
    await page.clock.runFor(1000);
    await page.keyboard.press('l');
    await expect(logout).toBeFocused();
    await page.clock.resume();
    await expect(menu).toBeVisible();
    // End and Home jump to the last and first items; the arrows wrap.
    await page.keyboard.press('End');
    await expect(logout).toBeFocused();
    await page.keyboard.press('Home');
    await expect(publicSite).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(logout).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(publicSite).toBeFocused();
  });

  test('links follow permissions; display name is shown instead of the username', async ({ page, server }) => {
    const user = await createStaffUser(server, { permissions: ['view:media', 'edit:website'], extraRoles: ['Staff'], displayName: 'Jo Camera' });
    // Staff gives view:media, view:clients and view:enquiries too: remove it to see exactly our role.
    await server.sql.execute({
      sql: "DELETE FROM user_roles WHERE role_id = (SELECT id FROM roles WHERE name = 'Staff') AND user_id = (SELECT id FROM users WHERE username = ?)",
      args: [user.username],
    });
    await signInAs(page, user.username, user.password, '/admin/media');
    const nav = page.getByRole('navigation', { name: 'Admin', exact: true });
    await expect(nav.getByRole('link')).toHaveText(['Dashboard', 'Media', 'Galleries', 'Website']);
    await expect(nav.getByRole('link', { name: 'Media' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('user-menu-button')).toHaveText('Jo Camera');
  });

  test('the logo shows in light and dark variants at 50x50 and links to the dashboard', async ({ page, server }) => {
    const light = await insertMedia(server, { title: 'Logo light' });
    const dark = await insertMedia(server, { title: 'Logo dark' });
    await server.sql.execute({ sql: 'UPDATE branding_settings SET logo_light_image_id = ?, logo_dark_image_id = ?, company_name = ? WHERE id = 1', args: [light, dark, 'Lumen Films'] });
    try {
      await signInStaff(page);
      const header = page.getByTestId('admin-nav');
      const imgs = header.locator('a[href="/admin/dashboard"] img');
      await expect(imgs).toHaveCount(2);
      for (const img of await imgs.all()) {
        await expect(img).toHaveAttribute('width', '50');
        await expect(img).toHaveAttribute('height', '50');
      }
      await expect(imgs.nth(0)).toHaveAttribute('src', /^\/media\/[a-f0-9]{32}\//);
      await expect(header.getByTestId('admin-company-name')).toHaveText('Lumen Films');
    } finally {
      await server.sql.execute("UPDATE branding_settings SET logo_light_image_id = NULL, logo_dark_image_id = NULL, company_name = 'Studio' WHERE id = 1");
    }
  });

  test('mobile: the slide-out menu lists every link, Public Site and Logout', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await signInStaff(page);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByRole('navigation', { name: 'Admin', exact: true })).toBeHidden();
    await page.getByTestId('mobile-menu-button').click();
    const drawer = page.getByRole('dialog', { name: 'Admin menu' });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('navigation').getByRole('link')).toHaveText(ALL_LINKS);
    await expect(drawer.getByRole('link', { name: 'Public Site' })).toHaveAttribute('href', '/');
    await drawer.getByRole('link', { name: 'Media' }).click();
    await expect(page).toHaveURL(/\/admin\/media$/);
    await islandsReady(page);
    await page.getByTestId('mobile-menu-button').click();
    await page.getByRole('dialog', { name: 'Admin menu' }).getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByTestId('toast')).toContainText('Logged out');
  });

  test('logout ends the session, goes to /auth with the toast, and admin pages then need sign-in', async ({ page, server }) => {
    await signInStaff(page);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    const before = await count(server, 'SELECT COUNT(*) FROM staff_sessions');
    await page.getByTestId('user-menu-button').click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('Logged out');
    await expect(toast).toContainText('You have been successfully logged out.');
    expect(await count(server, 'SELECT COUNT(*) FROM staff_sessions')).toBe(before - 1);
    await page.goto('/admin/media');
    await expect(page).toHaveURL(/\/auth\?next=%2Fadmin%2Fmedia$/);
  });

  // Issue 19 #10: a logout the server refuses still clears the HttpOnly cookie, and one that
  // never reached the server is retried (keepalive), so the dashboard no longer opens.
  test('a logout answered with an error still signs out: /admin/dashboard then needs sign-in', async ({ page }) => {
    await signInStaff(page);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    // The browser will not let a page forge Origin, so the request goes out through the
    // context's request client (same cookie jar) as a cross-site write, which the server refuses.
    await page.route('**/api/logout', async (route) => {
      const response = await route.fetch({ headers: { ...route.request().headers(), 'content-type': 'application/json', origin: 'https://evil.example' } });
      await route.fulfill({ response });
    });
    const answer = page.waitForResponse('**/api/logout');
    await page.getByTestId('user-menu-button').click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    expect((await answer).status()).toBe(403);
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL(/\/auth\?next=%2Fadmin%2Fdashboard$/);
  });

  test('a logout that fails in the network is sent again and ends the session', async ({ page, server }) => {
    await signInStaff(page);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    const before = await count(server, 'SELECT COUNT(*) FROM staff_sessions');
    let aborted = false;
    await page.route('**/api/logout', (route) => {
      if (aborted) return route.continue();
      aborted = true;
      return route.abort('internetdisconnected');
    });
    await page.getByTestId('user-menu-button').click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    // The retry is awaited before leaving, so the sign-in page is not sent back to the dashboard
    // by a session the retry has not ended yet, and the server's answer gives the success toast.
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByTestId('toast')).toContainText('You have been successfully logged out.');
    expect(await count(server, 'SELECT COUNT(*) FROM staff_sessions')).toBe(before - 1);
    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL(/\/auth\?next=%2Fadmin%2Fdashboard$/);
  });
});
