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

import { test as base } from './fixtures.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

/**
 * Same fixtures, but a worker (and so a server) of its own: for files that use up
 * per-address limits or need an empty media library, so they neither disturb nor depend
 * on other files sharing a worker.
 */
export const isolatedTest = base.extend<{}, { server: TestServer }>({
  server: [
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});
