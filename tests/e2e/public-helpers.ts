import type { Page } from '@playwright/test';

/** Waits until the islands that hydrate on idle (navigation, theme, toasts) are live. */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr][client="idle"]').length === 0);
}
