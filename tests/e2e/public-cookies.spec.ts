// Cookie banner (000 §2, §4, §9): 1000 ms delay, 100 ms slide-in, 300 ms hide, and what each
// button stores under `cookie-consent`.
import { test, expect } from './fixtures.ts';
import { hydrated } from './public-helpers.ts';

const stored = (page: import('@playwright/test').Page) => page.evaluate(() => localStorage.getItem('cookie-consent'));

test('appears about a second after load, slides in, links to the privacy policy', async ({ page }) => {
  await page.goto('/');
  await hydrated(page);
  const start = Date.now();
  const banner = page.getByTestId('cookie-banner');
  await expect(banner).toHaveCount(0);
  await expect(banner).toHaveAttribute('data-state', 'shown');
  expect(Date.now() - start).toBeGreaterThanOrEqual(800);
  await expect(banner.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
  for (const name of ['Manage', 'Reject All', 'Accept All', 'Close cookie banner']) await expect(banner.getByRole('button', { name })).toBeVisible();
});

const CHOICES = [
  ['Accept All', { necessary: true, analytics: true, marketing: true, preferences: true }],
  ['Reject All', { necessary: true, analytics: false, marketing: false, preferences: false }],
  ['Manage', { necessary: true, analytics: false, marketing: false, preferences: false }],
] as const;

for (const [button, expected] of CHOICES) {
  test(`${button} stores ${JSON.stringify(expected)} and the banner does not come back`, async ({ page }) => {
    await page.goto('/about');
    const banner = page.getByTestId('cookie-banner');
    await expect(banner).toHaveAttribute('data-state', 'shown');
    const before = Date.now();
    await banner.getByRole('button', { name: button, exact: true }).click();
    await expect(banner).toHaveCount(0);
    expect(Date.now() - before).toBeGreaterThanOrEqual(250);
    const value = JSON.parse((await stored(page))!);
    expect(value).toMatchObject(expected);
    expect(Object.keys(value).sort()).toEqual(['analytics', 'marketing', 'necessary', 'preferences', 'timestamp']);
    expect(Date.now() - Date.parse(value.timestamp)).toBeLessThan(60_000);
    await page.reload();
    await hydrated(page);
    await page.waitForTimeout(1600);
    await expect(banner).toHaveCount(0);
  });
}

test('closing hides it without storing anything, so it shows again next time', async ({ page }) => {
  await page.goto('/services');
  const banner = page.getByTestId('cookie-banner');
  await expect(banner).toHaveAttribute('data-state', 'shown');
  await banner.getByRole('button', { name: 'Close cookie banner' }).click();
  await expect(banner).toHaveAttribute('data-state', 'leaving');
  await expect(banner).toHaveCount(0);
  expect(await stored(page)).toBeNull();
  await page.reload();
  await expect(banner).toHaveAttribute('data-state', 'shown');
});
