// Every admin page hydrates without a React error (issue 39: "admin pages log React hydration
// error #418"). The server renders in its own time zone and theme; the browser here is elsewhere
// (Los Angeles, German locale, dark scheme, narrow and wide), with content dated near midnight
// and a stored theme that differs from the scheme, so any text the two compute differently
// (dates, relative times, theme icons) shows up as a console error or a page error.
import type { ConsoleMessage } from '@playwright/test';
import { test, expect, ADMIN } from './fixtures.ts';
import { createClient, insertMedia, islandsReady } from './admin-helpers.ts';

const PAGES = ['/admin/dashboard', '/admin/media', '/admin/clients', '/admin/users', '/admin/roles', '/admin/share-links', '/admin/enquiries', '/admin/website-customization'];

const REACT_ERROR = /Minified React error|#418|#419|#423|#425|hydrat/i;

const BROWSERS = [
  { name: 'Los Angeles, German, dark scheme, light theme stored, 375 px', timezoneId: 'America/Los_Angeles', locale: 'de-DE', colorScheme: 'dark' as const, theme: 'light', width: 375 },
  { name: 'Auckland, US English, light scheme, dark theme stored, 1280 px', timezoneId: 'Pacific/Auckland', locale: 'en-US', colorScheme: 'light' as const, theme: 'dark', width: 1280 },
];

for (const b of BROWSERS) {
  test(`admin pages hydrate without a React error: ${b.name}`, async ({ browser, server }) => {
    test.setTimeout(180_000);
    // Items made at 23:59 and 00:01 London time, so their day differs between time zones.
    const midnight = new Date();
    midnight.setUTCHours(0, 0, 0, 0);
    const clientId = await createClient(server, 'Hydration Co');
    for (const [title, at] of [['Late Still', midnight.getTime() - 60_000], ['Early Film', midnight.getTime() + 60_000]] as const) {
      await insertMedia(server, { title, type: title.includes('Film') ? 'video' : 'image', createdAt: at, clientIds: [clientId], featured: true });
    }
    await server.sql.execute({
      sql: "INSERT INTO enquiries (first_name, last_name, email, message, status, created_at) VALUES ('Eve', 'Late', 'eve@example.test', 'A film at midnight', 'new', ?)",
      args: [midnight.getTime() - 30_000],
    });
    const context = await browser.newContext({ baseURL: server.url, timezoneId: b.timezoneId, locale: b.locale, colorScheme: b.colorScheme, viewport: { width: b.width, height: 800 } });
    try {
      await context.addInitScript((theme) => {
        try {
          localStorage.setItem('studio-theme', theme);
          localStorage.setItem('cookie-consent', JSON.stringify({ necessary: true, analytics: false, marketing: false, preferences: false, timestamp: new Date().toISOString() }));
        } catch {
          // opaque origins have no storage
        }
      }, b.theme);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m: ConsoleMessage) => {
        if (m.type() === 'error' && REACT_ERROR.test(m.text())) errors.push(`${page.url()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => {
        if (REACT_ERROR.test(`${e.message}`)) errors.push(`${page.url()}: ${e.message}`);
      });
      expect((await page.request.post('/api/login', { data: { username: ADMIN.username, password: ADMIN.password } })).status()).toBe(200);
      for (const path of PAGES) {
        await page.goto(path);
        await islandsReady(page);
        // Lists load after hydration; let them render before moving on.
        await page.waitForLoadState('networkidle');
      }
      // The media list with an item open, and the upload dialog from its address.
      await page.goto('/admin/media?upload=true');
      await islandsReady(page);
      await expect(page).toHaveURL(/\/admin\/media$/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
