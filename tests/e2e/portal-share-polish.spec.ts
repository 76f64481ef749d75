// Issue 32, "Portal and share page polish": the portal's Need Help gives the studio's contact
// details from Contact Info (the welcome stays the username), the portal has the theme toggle,
// a decision shows its date and time; the share page at 375 px does not scroll sideways, its
// badges stay whole, Approve shows the decision once made; axe clean in both themes.
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, ADMIN, storeCookieChoice } from './fixtures.ts';
import { islandsReady, makeImage, signInAs, tempDir } from './admin-helpers.ts';
import { settled } from './public-helpers.ts';
import { createClientWithPortalLogin } from '../helpers/portal-fixtures.ts';

// "22 Nov 2026, 14:05" (formatDateTime in src/shared/format.ts).
const DATE_TIME = /\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}/;

/** Serious and critical axe violations; the shared Toaster's region is not the page's. */
async function serious(page: Page): Promise<string[]> {
  await settled(page);
  const result = await new AxeBuilder({ page }).exclude('astro-island:has([aria-label="Notifications (F8)"])').analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('dark'));

async function uploadImage(page: Page, serverUrl: string, title: string, clientId?: number): Promise<number> {
  const file = fs.readFileSync(await makeImage(tempDir(), 'still.jpg'));
  const res = await page.request.post('/api/media', {
    headers: { Origin: serverUrl },
    multipart: {
      title,
      ...(clientId ? { clientId: String(clientId) } : {}),
      isFeatured: 'false',
      showInPortfolio: 'false',
      file: { name: 'still.jpg', mimeType: 'image/jpeg', buffer: file },
    },
  });
  expect(res.status()).toBe(201);
  // An image is ready when the upload answers (only videos are converted by the worker).
  return (await res.json()).id;
}

test('the portal: Need Help gives the contact details, the theme toggle switches, a decision shows date and time', async ({ browser, server }) => {
  test.setTimeout(90_000);
  await server.sql.execute({
    sql: `INSERT INTO contact_info (id, contact_email, contact_phone, contact_address) VALUES (1, ?, ?, ?)
          ON CONFLICT(id) DO UPDATE SET contact_email = excluded.contact_email, contact_phone = excluded.contact_phone, contact_address = excluded.contact_address`,
    args: ['films@harbour.example', '01632 960 123', '4 Quay Street, Bristol'],
  });
  const login = await createClientWithPortalLogin(server, 'Harbour');
  const studio = await browser.newContext({ baseURL: server.url });
  const client = await browser.newContext({ baseURL: server.url });
  // Contexts of its own miss the fixture's stored cookie choice: without it the banner fades in
  // about a second after load, and an axe run during its fade measures half-transparent text.
  await Promise.all([storeCookieChoice(studio), storeCookieChoice(client)]);
  try {
    const staff = await studio.newPage();
    await signInAs(staff, ADMIN.username, ADMIN.password, '/admin/dashboard');
    await uploadImage(staff, server.url, 'Harbour still', login.clientId);

    const page = await client.newPage();
    expect((await page.request.post('/api/client/login', { data: { username: login.username, password: login.password } })).status()).toBe(200);
    await page.goto('/client/dashboard');
    await islandsReady(page);
    // The welcome is the username, as the documents say.
    await expect(page.getByRole('heading', { name: `Welcome back, ${login.username}` })).toBeVisible();
    const help = page.getByRole('region', { name: 'Need Help?' });
    await expect(help.getByRole('link', { name: 'films@harbour.example' })).toHaveAttribute('href', 'mailto:films@harbour.example');
    await expect(help.getByRole('link', { name: '01632 960 123' })).toHaveAttribute('href', /^tel:/);
    await expect(help).toContainText('4 Quay Street, Bristol');
    await expect(help).not.toContainText('Contact your project manager');

    // The theme toggle switches the portal's theme, and the page is axe clean in both.
    const toggle = page.getByTestId('theme-toggle');
    await expect(toggle).toBeEnabled();
    const before = await isDark(page);
    await toggle.click();
    await expect.poll(() => isDark(page)).toBe(!before);
    expect(await serious(page), `axe in ${before ? 'light' : 'dark'}`).toEqual([]);
    await toggle.click();
    await expect.poll(() => isDark(page)).toBe(before);
    expect(await serious(page), `axe in ${before ? 'dark' : 'light'}`).toEqual([]);

    // A decision shows its date and time.
    await page.getByRole('button', { name: 'Open Harbour still' }).click();
    const dialog = page.getByRole('dialog', { name: 'Harbour still' });
    const approval = dialog.getByTestId('client-approval');
    await approval.getByRole('button', { name: 'Approve' }).click();
    await expect(approval.getByTestId('approval-status')).toHaveText('Approved');
    await expect(approval).toContainText(login.username);
    await expect(approval).toContainText(DATE_TIME);
  } finally {
    await studio.close();
    await client.close();
  }
});

test.describe('the share page at 375 px', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test('no sideways scroll, whole badges, Approve shows the decision, axe clean in both themes', async ({ browser, server }) => {
    test.setTimeout(90_000);
    const studio = await browser.newContext({ baseURL: server.url });
    const guest = await browser.newContext({ baseURL: server.url, viewport: { width: 375, height: 800 } });
    await Promise.all([storeCookieChoice(studio), storeCookieChoice(guest)]);
    try {
      const staff = await studio.newPage();
      await signInAs(staff, ADMIN.username, ADMIN.password, '/admin/dashboard');
      const id = await uploadImage(staff, server.url, 'Quayside still with a rather long title for a narrow phone');
      const made = await staff.request.post('/api/share-links', {
        headers: { Origin: server.url },
        data: { name: 'Harbour review for the agency', mediaIds: [id], allowApprove: true, allowComment: true, download: 'preview' },
      });
      expect(made.status()).toBe(201);
      const { url } = await made.json();

      const page = await guest.newPage();
      const noOverflow = async (label: string) => {
        const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
        expect(scrollWidth, `${label}: page is ${scrollWidth}px wide in a ${clientWidth}px window`).toBeLessThanOrEqual(clientWidth);
      };
      const badgesWhole = async () => {
        // Each badge is one line high: its text never wraps inside it.
        const heights = await page.getByTestId('share-item').locator('span.rounded-full, span.rounded').evaluateAll((els) => els.map((e) => ({ text: e.textContent, lines: Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight || '16')) })));
        for (const h of heights) expect(h.lines, `badge "${h.text}"`).toBeLessThanOrEqual(1);
      };

      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(url);
        await islandsReady(page);
        await expect(page.getByRole('heading', { name: 'Harbour review for the agency' })).toBeVisible();
        await expect.poll(() => isDark(page)).toBe(scheme === 'dark');
        await noOverflow(scheme);
        await badgesWhole();
        expect(await serious(page), `axe in ${scheme}`).toEqual([]);
      }

      // Approve, then the decision is shown in place of a second Approve.
      await page.getByLabel('Your name').fill('Sam Producer');
      await page.getByRole('button', { name: 'Approve v1' }).click();
      const approved = page.getByRole('button', { name: 'Approved v1' });
      await expect(approved).toBeDisabled();
      await expect(page.getByTestId('share-decision')).toContainText('Approved by Sam Producer');
      await expect(page.getByTestId('share-decision')).toContainText(DATE_TIME);
      await expect(page.getByTestId('share-item').getByTestId('approval-status')).toHaveText('Approved');
      await noOverflow('after approving');
      await badgesWhole();
      // Still there after a reload (from the server, not only the page's memory).
      await page.reload();
      await islandsReady(page);
      await expect(page.getByRole('button', { name: 'Approved v1' })).toBeDisabled();
      await expect(page.getByTestId('share-decision')).toContainText(DATE_TIME);
      expect(await serious(page), 'axe after approving').toEqual([]);
    } finally {
      await studio.close();
      await guest.close();
    }
  });
});
