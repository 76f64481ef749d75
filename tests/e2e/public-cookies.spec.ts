// Cookie banner (000 §2, §4, §9): 1000 ms delay, 100 ms slide-in, 300 ms hide, and what each
// button stores under `cookie-consent`.
import { test, expect, afterReactRender, signInStaff } from './fixtures.ts';
import { hydrated } from './public-helpers.ts';
import { BANNER_DELAY_MS, BANNER_SLIDE_IN_MS } from '../../src/islands/public/consent.ts';

// First-time visitors: no stored choice (the shared fixture stores one for every other file).
test.use({ cookieConsent: false });

const stored = (page: import('@playwright/test').Page) => page.evaluate(() => localStorage.getItem('cookie-consent'));

/**
 * For "the banner does not come back": the page's timers run on Playwright's clock, and each
 * page load counts its reads of the stored choice (what the banner does first on mounting, and
 * nothing else on the page does), so a check can wait for the banner to have looked, then run
 * the clock past its delay and slide-in.
 */
async function watchBanner(page: import('@playwright/test').Page) {
  await page.clock.install();
  await page.addInitScript(() => {
    const w = window as unknown as { __consentReads: number };
    w.__consentReads = 0;
    const get = Storage.prototype.getItem;
    Storage.prototype.getItem = function (this: Storage, key: string) {
      if (key === 'cookie-consent') w.__consentReads++;
      return get.call(this, key);
    };
  });
}

/** The banner has read the stored choice, any timer it set has fired and React has rendered: it is not there. */
async function expectBannerStaysAway(page: import('@playwright/test').Page, where = '') {
  await page.waitForFunction(() => (window as unknown as { __consentReads: number }).__consentReads > 0);
  await page.clock.runFor(BANNER_DELAY_MS + BANNER_SLIDE_IN_MS);
  await afterReactRender(page);
  await expect(page.getByTestId('cookie-banner'), where).toHaveCount(0);
}

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
] as const;

for (const [button, expected] of CHOICES) {
  test(`${button} stores ${JSON.stringify(expected)} and the banner does not come back`, async ({ page }) => {
    await watchBanner(page);
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
    await expectBannerStaysAway(page);
  });
}

test('Manage opens the choices instead of rejecting; Save choices stores them, and Cookie settings in the footer opens them again', async ({ page }) => {
  await watchBanner(page);
  await page.goto('/contact');
  const banner = page.getByTestId('cookie-banner');
  await expect(banner).toHaveAttribute('data-state', 'shown');
  await banner.getByRole('button', { name: 'Manage', exact: true }).click();
  // Nothing stored and the banner stays: the choices take the summary's place, focus with them.
  await expect(banner.getByRole('heading', { name: 'Choose your cookies' })).toBeFocused();
  expect(await stored(page)).toBeNull();
  await expect(banner).toContainText('Always on');
  for (const name of ['Analytics', 'Marketing', 'Preferences']) await expect(banner.getByRole('switch', { name })).not.toBeChecked();
  await banner.getByRole('switch', { name: 'Analytics' }).check();
  await banner.getByRole('switch', { name: 'Preferences' }).check();
  await banner.getByRole('button', { name: 'Save choices' }).click();
  await expect(banner).toHaveCount(0);
  expect(JSON.parse((await stored(page))!)).toMatchObject({ necessary: true, analytics: true, marketing: false, preferences: true });

  await page.reload();
  await hydrated(page);
  await expectBannerStaysAway(page);
  await page.locator('footer').getByRole('button', { name: 'Cookie settings' }).click();
  await page.clock.runFor(BANNER_SLIDE_IN_MS);
  await expect(banner.getByRole('switch', { name: 'Analytics' })).toBeChecked();
  await expect(banner.getByRole('switch', { name: 'Marketing' })).not.toBeChecked();
  await banner.getByRole('switch', { name: 'Analytics' }).uncheck();
  await banner.getByRole('button', { name: 'Save choices' }).click();
  await page.clock.runFor(BANNER_DELAY_MS);
  await expect(banner).toHaveCount(0);
  expect(JSON.parse((await stored(page))!)).toMatchObject({ analytics: false, marketing: false, preferences: true });
});

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

test('site-wide: shows on the sign-in and admin pages too, and Accept All there hides it everywhere', async ({ page }) => {
  await watchBanner(page);
  const banner = page.getByTestId('cookie-banner');
  await page.goto('/auth');
  await expect(banner).toHaveAttribute('data-state', 'shown');
  await signInStaff(page);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(banner).toHaveAttribute('data-state', 'shown');
  await expect(banner).toHaveCount(1);
  await banner.getByRole('button', { name: 'Accept All', exact: true }).click();
  await expect(banner).toHaveCount(0);
  expect(JSON.parse((await stored(page))!)).toMatchObject({ necessary: true, analytics: true, marketing: true, preferences: true });
  for (const path of ['/admin/media', '/client/login', '/', '/no-such-page']) {
    await page.goto(path);
    await hydrated(page);
    await expectBannerStaysAway(page, path);
  }
});

test('a public page mounts the banner once', async ({ page }) => {
  await page.goto('/contact');
  await expect(page.getByTestId('cookie-banner')).toHaveAttribute('data-state', 'shown');
  await expect(page.getByTestId('cookie-banner')).toHaveCount(1);
});
