// The three accounts screens at 375 px in both colour schemes: no horizontal scroll, no axe
// violations on the page or in its main dialog.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, ADMIN, oncePerServer } from './fixtures.ts';
import { staffSession } from '../helpers/http.ts';
import { settled } from './public-helpers.ts';
import { hydrated, signInStaff } from './accounts-helpers.ts';

const violations = async (page: Page, include?: string) => {
  await settled(page);
  let builder = new AxeBuilder({ page }).exclude('astro-island:has([aria-label="Notifications (F8)"])');
  if (include) builder = builder.include(include);
  return (await builder.analyze()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' | ')}`);
};

const SCREENS: [string, string, string][] = [
  ['/admin/users', '[data-testid="user-row"]', 'Add User'],
  ['/admin/clients', '[data-testid="client-card"]', 'Add Client'],
  ['/admin/roles', '[data-testid="role-zone"]', 'Add Role'],
];

test.describe('accounts screens: 375 px, keyboard, axe', () => {
  test.beforeEach(
    oncePerServer(async (server) => {
      const admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
      await admin.json('POST', '/api/clients', { name: 'Axe Films', email: 'axe@films.test', company: 'Axe Ltd', phone: '0116', notes: 'Notes', username: 'axefilms', password: 'secret-pw' });
    }),
  );

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const [path, ready, addButton] of SCREENS) {
      test(`${colorScheme}: ${path}`, async ({ page }) => {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize({ width: 375, height: 740 });
        await signInStaff(page);
        await page.goto(path);
        await hydrated(page, ready);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        expect(await violations(page)).toEqual([]);
        const add = page.getByRole('button', { name: addButton }).first();
        await add.focus();
        await page.keyboard.press('Enter');
        await expect(page.locator('dialog[open]')).toBeVisible();
        expect(await violations(page, 'dialog[open]')).toEqual([]);
        await page.keyboard.press('Escape');
        await expect(page.locator('dialog[open]')).toHaveCount(0);
        await expect(add).toBeFocused();
      });
    }
  }
});
