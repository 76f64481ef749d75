import AxeBuilder from '@axe-core/playwright';
import { test, expect, ADMIN, oncePerServer } from './fixtures.ts';
import { insertMedia, signInAs } from './admin-helpers.ts';
import { settled } from './public-helpers.ts';

const cases: [string, 'light' | 'dark'][] = [
  ['/admin/dashboard', 'light'],
  ['/admin/dashboard', 'dark'],
  ['/admin/media', 'light'],
  ['/admin/media', 'dark'],
];

test.describe('admin shell, dashboard and media: no serious accessibility violations', () => {
  test.beforeEach(
    oncePerServer(async (server) => {
      await insertMedia(server, { title: 'A11y Still', tags: ['a', 'b', 'c', 'd'], stage: 'production', notes: 'Notes', featured: true, portfolio: true });
      await insertMedia(server, { title: 'A11y Film', type: 'video' });
    }),
  );

  for (const [path, theme] of cases) {
    test(`${path} in ${theme} theme`, async ({ page, server }) => {
      const cspErrors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && /Content Security Policy/i.test(m.text()) && cspErrors.push(m.text()));
      await page.context().addCookies([{ name: 'studio-theme', value: theme, url: server.url }]);
      await page.addInitScript((t) => localStorage.setItem('studio-theme', t), theme);
      await signInAs(page, ADMIN.username, ADMIN.password, path);
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/);
      if (path === '/admin/media') await expect(page.getByTestId('media-card').first()).toBeVisible();
      else await expect(page.getByTestId('stat-total-media')).toBeVisible();
      await settled(page);
      const { violations } = await new AxeBuilder({ page }).analyze();
      const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      expect(cspErrors).toEqual([]);
    });
  }

  test('the detail dialog', async ({ page }) => {
    await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
    await page.getByRole('button', { name: 'Open A11y Film' }).click();
    for (const tab of ['Feedback', 'Edit', 'Assign', 'Settings']) {
      await page.getByRole('tab', { name: tab }).click();
      await settled(page);
      const { violations } = await new AxeBuilder({ page }).include('dialog[open]').analyze();
      expect(violations.map((v) => `${tab} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    }
  });
});
