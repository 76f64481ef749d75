// Watch pages in Chromium (issue 21): a grid card is a real link that opens the film's own
// page in a new tab, and the page has no serious accessibility violation in either theme.
import { test, expect } from './fixtures.ts';
import { hydrated, seriousViolations } from './public-helpers.ts';
import { insertMedia } from '../helpers/public-media.ts';

test.describe.configure({ mode: 'serial' });

test('a portfolio card opens its watch page in a new tab; the page links on to the next film and to Let\'s Create', async ({ page, context, server }) => {
  await insertMedia(server.sql, server.mediaDir, { title: 'Riverside Wedding', type: 'image', portfolio: true, tags: ['events'] });
  await insertMedia(server.sql, server.mediaDir, { title: 'Foundry Documentary', type: 'image', portfolio: true, tags: ['documentary'] });
  await page.goto('/portfolio');
  await hydrated(page);
  const card = page.getByRole('link', { name: 'View Riverside Wedding' });
  await expect(card).toHaveAttribute('href', '/portfolio/riverside-wedding');
  const [tab] = await Promise.all([context.waitForEvent('page'), card.click({ modifiers: ['ControlOrMeta'] })]);
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).toBe('/portfolio/riverside-wedding');
  await expect(tab.getByRole('heading', { level: 1 })).toHaveText('Riverside Wedding');
  await expect(tab.getByTestId('watch-image')).toBeVisible();
  // The grid page itself did not open a dialog or navigate.
  expect(new URL(page.url()).pathname).toBe('/portfolio');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Newest first: Riverside (older) has Foundry as its previous film.
  await tab.getByTestId('watch-prev').click();
  await expect(tab).toHaveURL(/\/portfolio\/foundry-documentary$/);
  await expect(tab.getByTestId('watch-cta')).toHaveAttribute('href', '/contact');
});

test('without JavaScript a card still leads to its watch page', async ({ browser, server }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: server.url });
  const page = await context.newPage();
  await page.goto('/portfolio');
  await page.getByRole('link', { name: 'View Riverside Wedding' }).click();
  await expect(page).toHaveURL(/\/portfolio\/riverside-wedding$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Riverside Wedding');
  await context.close();
});

for (const theme of ['dark', 'light'] as const) {
  test(`a watch page in ${theme}: no serious or critical axe violations`, async ({ page }) => {
    await page.addInitScript((t) => localStorage.setItem('studio-theme', t), theme);
    await page.goto('/portfolio/foundry-documentary');
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark).*$/);
    await hydrated(page);
    expect(await seriousViolations(page)).toEqual([]);
  });
}
