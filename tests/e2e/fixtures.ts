// Each test file (worker) gets its own real server on its own temporary database.
import { test as base, expect, type Page } from '@playwright/test';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';

export const test = base.extend<{ baseURL: string; cookieConsent: boolean }, { server: TestServer }>({
  /**
   * The cookie banner shows on every page (000 §2) and would cover the bottom of the screen,
   * so each test starts with a choice stored. Tests of the banner itself opt out with
   * `test.use({ cookieConsent: false })`.
   */
  cookieConsent: [true, { option: true }],
  context: async ({ context, cookieConsent }, use) => {
    if (cookieConsent) {
      await context.addInitScript(() => {
        try {
          localStorage.setItem('cookie-consent', JSON.stringify({ necessary: true, analytics: false, marketing: false, preferences: false, timestamp: new Date().toISOString() }));
        } catch {
          // about:blank and other opaque origins have no storage.
        }
      });
    }
    await use(context);
  },
  server: [
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ server }, use) => use(server.url),
});

export { expect, ADMIN };

/** Waits until every island on the page has hydrated (Astro drops the `ssr` attribute). */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
}

/** Waits until the island whose component file name contains `name` has hydrated. */
export async function waitForIsland(page: Page, name: string) {
  await page.locator(`astro-island[component-url*="${name}"]:not([ssr])`).first().waitFor({ state: 'attached' });
}

export async function signInStaff(page: Page, username = ADMIN.username, password = ADMIN.password) {
  await page.goto('/auth');
  await page.locator('astro-island[component-url*="StaffLogin"]:not([ssr])').waitFor({ state: 'attached' });
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/**
 * Makes every play() refuse as a browser's autoplay policy does (not our code) and collects the
 * page's console lines and uncaught errors, for the "blocked autoplay is only logged" checks.
 */
export async function blockAutoplay(page: Page) {
  await page.addInitScript(() => {
    HTMLMediaElement.prototype.play = function () {
      return Promise.reject(new DOMException('play() failed because the user did not interact', 'NotAllowedError'));
    };
  });
  const logs: string[] = [];
  const uncaught: string[] = [];
  page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => uncaught.push(e.message));
  return {
    /** Waits for the log line, then checks nothing was raised or logged as an error about it. */
    async expectOnlyLogged() {
      await expect.poll(() => logs.some((l) => l.startsWith('log: Autoplay was blocked: NotAllowedError'))).toBe(true);
      expect(uncaught.filter((m) => /autoplay|play\(\)|NotAllowed/i.test(m))).toEqual([]);
      expect(logs.filter((l) => l.startsWith('error') && /autoplay|play\(\)/i.test(l))).toEqual([]);
    },
  };
}
