// Each test file gets its own real server on its own temporary database (see `server`).
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { stopAll } from '../helpers/processes.ts';
import { beginTestFile, endTestFile } from '../helpers/timing.ts';

/** Stores a cookie choice before any page script runs, so the banner stays out of the way. */
export async function storeCookieChoice(target: BrowserContext | Page) {
  await target.addInitScript(() => {
    try {
      localStorage.setItem('cookie-consent', JSON.stringify({ necessary: true, analytics: false, marketing: false, preferences: false, timestamp: new Date().toISOString() }));
    } catch {
      // about:blank and other opaque origins have no storage.
    }
  });
}

/** The worker's current server and the test file it belongs to. */
interface FileServers {
  forFile(file: string): Promise<TestServer>;
}

export const test = base.extend<{ baseURL: string; cookieConsent: boolean; server: TestServer }, { fileServers: FileServers }>({
  /**
   * The cookie banner shows on every page (000 §2) and would cover the bottom of the screen,
   * so each test starts with a choice stored. Tests of the banner itself opt out with
   * `test.use({ cookieConsent: false })`.
   */
  cookieConsent: [true, { option: true }],
  context: async ({ context, cookieConsent }, use) => {
    if (cookieConsent) await storeCookieChoice(context);
    await use(context);
  },
  /**
   * One real server per test file. A worker runs several files one after another, so the
   * worker keeps the server of the file it is on and, when it moves to the next file, stops
   * that server (and its database) and starts a fresh one: no file sees another's rows, rate
   * limits or settings, whatever the order. Test-scoped for that reason, so `beforeAll` cannot
   * use it; see `oncePerServer`.
   */
  fileServers: [
    async ({}, use) => {
      const held: { file?: string; server?: TestServer } = {};
      await use({
        async forFile(file) {
          if (held.server && held.file === file) return held.server;
          const previous = held.server;
          held.server = held.file = undefined;
          await previous?.stop();
          // Where each file's time goes, with STUDIO_TEST_TIMES set (tests/helpers/timing.ts).
          beginTestFile('e2e', file);
          held.server = await startServer();
          held.file = file;
          return held.server;
        },
      });
      await held.server?.stop();
      // Anything else this worker started and left running (tests/helpers/processes.ts).
      await stopAll();
      endTestFile();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  server: [
    async ({ fileServers }, use, testInfo) => {
      const server = await fileServers.forFile(testInfo.file);
      const from = server.output().length;
      await use(server);
      // A failure in CI leaves only the report: keep what the server logged during the test.
      if (testInfo.status !== testInfo.expectedStatus && server.output().length > from) {
        await testInfo.attach('server-output', { body: server.output().slice(from).slice(-20_000), contentType: 'text/plain' });
        console.log(`--- server output during "${testInfo.title}" ---\n${server.output().slice(from).slice(-8_000)}`);
      }
    },
    { timeout: 90_000 },
  ],
  baseURL: async ({ server }, use) => use(server.url),
});

export { expect, ADMIN };

/**
 * Set-up that runs once per server, in place of `beforeAll` (which cannot use the test-scoped
 * server): the first test of the file runs it, and so does the first test after a failure
 * restarted the worker with a new server.
 */
export function oncePerServer(setUp: (server: TestServer) => Promise<void>) {
  const done = new WeakSet<TestServer>();
  return async ({ server }: { server: TestServer }) => {
    if (done.has(server)) return;
    done.add(server);
    await setUp(server);
  };
}

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

/**
 * Waits until React has rendered what the page's timers or events just set off. React renders
 * such an update in a task of its own (a MessageChannel message), and a message posted now is
 * handled after it. With Playwright's clock, `runFor` then this is a positive sign that a
 * timer's work is on screen, where a fixed wait only hopes so.
 */
export async function afterReactRender(page: Page) {
  for (let i = 0; i < 2; i++) {
    await page.evaluate(
      () =>
        new Promise<void>((done) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => done();
          channel.port2.postMessage(null);
        }),
    );
  }
}
