import type { Page } from '@playwright/test';

/** Stores a cookie choice before any page script runs, so the banner stays out of the way. */
export async function skipCookieBanner(page: Page) {
  await page.addInitScript(() => {
    localStorage.setItem('cookie-consent', JSON.stringify({ necessary: true, analytics: false, marketing: false, preferences: false, timestamp: new Date().toISOString() }));
  });
}

/** Waits until the islands that hydrate on idle (navigation, theme, toasts) are live. */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr][client="idle"]').length === 0);
}
