// The staff inbox at /admin/enquiries, fed by the real POST /api/contact.
import type { APIRequestContext, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, signInStaff, ADMIN } from './fixtures.ts';
import { settled } from './public-helpers.ts';
import type { TestServer } from '../helpers/server.ts';

let seq = 0;
async function postEnquiry(request: APIRequestContext, baseURL: string, over: Record<string, string> = {}) {
  const n = `${Date.now() % 100000}-${++seq}`;
  const data = {
    firstName: 'Ivy',
    lastName: `Visitor${n}`,
    email: `ivy${n}@example.test`,
    projectType: 'music-video',
    message: `Hello! We need a music video for our single (ref ${n}).\nBudget is flexible.`,
    website: '',
    ...over,
  };
  const res = await request.post('/api/contact', { data, headers: { Origin: baseURL } });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  return { ...data, id, name: `${data.firstName} ${data.lastName}` };
}

/** Stored directly, for tests about the screen rather than the form (the form allows only five per address). */
async function insertEnquiry(server: TestServer, over: { firstName?: string; email?: string; message?: string; projectType?: string; minutesAgo?: number } = {}) {
  const n = `${Date.now() % 100000}-${++seq}`;
  const e = {
    firstName: over.firstName ?? 'Ivy',
    lastName: `Stored${n}`,
    email: over.email ?? `stored${n}@example.test`,
    projectType: over.projectType ?? 'music-video',
    message: over.message ?? `Stored enquiry ${n}`,
  };
  const r = await server.sql.execute({
    sql: `INSERT INTO enquiries (first_name, last_name, email, project_type, message, created_at)
          VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
    args: [e.firstName, e.lastName, e.email, e.projectType, e.message, Date.now() - (over.minutesAgo ?? 0) * 60_000],
  });
  return { ...e, id: Number(r.rows[0]!.id), name: `${e.firstName} ${e.lastName}` };
}

const statusOf = (server: TestServer, id: number) => async () =>
  (await server.sql.execute({ sql: 'SELECT status FROM enquiries WHERE id = ?', args: [id] })).rows[0]!.status;

async function signIn(page: Page) {
  await signInStaff(page);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

async function openInbox(page: Page) {
  await signIn(page);
  await page.goto('/admin/enquiries');
}

test.beforeEach(async ({ server }) => {
  await server.sql.execute('DELETE FROM enquiries');
});

test('a visitor enquiry appears in the inbox; opening marks it Read; it can be archived and restored', async ({ page, request, baseURL, server }) => {
  const e = await postEnquiry(request, baseURL!);
  await openInbox(page);
  await expect(page.getByRole('heading', { name: 'Enquiries', level: 1 })).toBeVisible();

  const row = page.getByTestId('enquiry-row').filter({ hasText: e.name });
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-status', 'new');
  await expect(row.getByText('New', { exact: true })).toBeVisible();
  await expect(row.getByText('Music Video', { exact: true })).toBeVisible();
  await expect(row.getByRole('link', { name: e.email })).toHaveAttribute('href', `mailto:${e.email}`);
  await expect(row).toContainText('Hello! We need a music video');
  await expect(row.locator('time')).toHaveText('just now');

  // Opening it shows everything and marks it Read, on the server too.
  await row.getByRole('button', { name: `Open enquiry from ${e.name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Enquiry from ${e.name}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('enquiry-message')).toHaveText(e.message);
  await expect(dialog.getByText('Music Video', { exact: true })).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Reply by email' })).toHaveAttribute(
    'href',
    new RegExp(`^mailto:${e.email}\\?subject=Re%3A%20your%20enquiry&`),
  );
  await expect(row).toHaveAttribute('data-status', 'read');
  await expect.poll(statusOf(server, e.id)).toBe('read');

  // Archive from the dialog.
  await dialog.getByRole('button', { name: 'Archive' }).click();
  await expect(page.getByTestId('toast')).toContainText('Enquiry archived');
  await expect(dialog.getByText('Archived', { exact: true })).toBeVisible();
  await expect.poll(statusOf(server, e.id)).toBe('archived');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // It is under Archived, not under Read; Restore from the row brings it back as Read.
  await page.getByRole('tab', { name: /^Read/ }).click();
  await expect(row).toHaveCount(0);
  await page.getByRole('tab', { name: /^Archived/ }).click();
  await expect(row).toHaveAttribute('data-status', 'archived');
  await row.getByRole('button', { name: `Restore enquiry from ${e.name}` }).click();
  await expect(page.getByTestId('toast')).toContainText('Enquiry restored');
  await expect.poll(statusOf(server, e.id)).toBe('read');

  // The change is stored: after a reload it is Read.
  await page.reload();
  await expect(page.getByTestId('enquiry-row').filter({ hasText: e.name })).toHaveAttribute('data-status', 'read');
});

test('newest first, search over name, email and message, and the status filter', async ({ page, server }) => {
  const first = await insertEnquiry(server, { firstName: 'Olga', message: 'A documentary about lighthouses', projectType: 'documentary', minutesAgo: 90 });
  const second = await insertEnquiry(server, { firstName: 'Pete', email: 'pete.unique@example.test', projectType: '', minutesAgo: 30 });
  const third = await insertEnquiry(server, { firstName: 'Quinn', projectType: 'event', minutesAgo: 5 });
  await openInbox(page);

  const rows = page.getByTestId('enquiry-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText(third.name);
  await expect(rows.nth(1)).toContainText(second.name);
  await expect(rows.nth(2)).toContainText(first.name);
  await expect(rows.nth(0)).toContainText('Event Coverage');
  await expect(rows.nth(0).locator('time')).toHaveText('5 minutes ago');
  await expect(rows.nth(2).locator('time')).toHaveText('1 hour ago');

  const search = page.getByLabel('Search enquiries');
  for (const [q, who] of [
    [first.lastName.toLowerCase(), first], // name, any case
    ['PETE.UNIQUE', second], // email
    ['lighthouses', first], // message
  ] as const) {
    await search.fill(q);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(who.name);
  }
  await search.fill('no such words anywhere');
  await expect(rows).toHaveCount(0);
  await expect(page.getByText('No enquiries match')).toBeVisible();
  await page.getByRole('button', { name: 'Show all enquiries' }).click();
  await expect(rows).toHaveCount(3);

  await rows.filter({ hasText: second.name }).getByRole('button', { name: /^Archive/ }).click();
  await expect(page.getByTestId('toast')).toContainText('Enquiry archived');
  await page.getByRole('tab', { name: /^New/ }).click();
  await expect(rows).toHaveCount(2);
  await page.getByRole('tab', { name: /^Archived/ }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(second.name);
});

test('skeletons while loading, then the empty state', async ({ page }) => {
  await signIn(page);
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/enquiries', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/admin/enquiries');
  await expect(page.getByTestId('skeleton').first()).toBeVisible();
  release();
  await expect(page.getByText('No enquiries yet')).toBeVisible();
  await expect(page.getByTestId('skeleton')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'View the contact page' })).toHaveAttribute('href', '/contact');
});

test('failures show a toast with the server message, and a failed archive is undone', async ({ page, server }) => {
  const e = await insertEnquiry(server);
  await openInbox(page);
  const row = page.getByTestId('enquiry-row').filter({ hasText: e.name });
  await expect(row).toHaveAttribute('data-status', 'new');

  // The session ends behind the page's back: the server refuses the change.
  await server.sql.execute('DELETE FROM staff_sessions');
  await row.getByRole('button', { name: `Archive enquiry from ${e.name}` }).click();
  const toast = page.getByTestId('toast');
  await expect(toast).toContainText('Could not archive the enquiry');
  await expect(toast).toContainText('Your session has expired. Sign in again to continue.');
  await expect(row).toHaveAttribute('data-status', 'new');
  expect(await statusOf(server, e.id)()).toBe('new');

  // A failed refresh says so and keeps the list on screen.
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(toast).toContainText('Failed to load enquiries');
  await expect(row).toBeVisible();
});

test('a failed first load shows a toast and a Try again button that recovers', async ({ page, server }) => {
  const e = await insertEnquiry(server);
  await signIn(page);
  // The first list request reaches the real server with a query it refuses (400), so the
  // failure is the server's own. (Ending the session in the database instead raced the bell's
  // requests, whose 401s clear the restored cookie at any moment.)
  let refused = 0;
  await page.route('**/api/enquiries', async (route) => {
    refused += 1;
    await route.continue({ url: `${route.request().url()}?status=bogus` });
  });
  await page.goto('/admin/enquiries');
  await expect(page.getByTestId('toast')).toContainText('Failed to load enquiries');
  await expect(page.getByTestId('toast')).toContainText("status must be 'new', 'read' or 'archived'");
  await expect(page.getByText('The enquiries could not be loaded')).toBeVisible();
  expect(refused).toBeGreaterThan(0);

  await page.unroute('**/api/enquiries');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('enquiry-row').filter({ hasText: e.name })).toBeVisible();
});

test.describe('accessibility and small screens', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`${theme}: no serious or critical axe violations in the list and the open enquiry; fits 375 px`, async ({ page, server }) => {
      await page.setViewportSize({ width: 375, height: 800 });
      await page.addInitScript((t) => localStorage.setItem('studio-theme', t), theme);
      const e = await insertEnquiry(server, { message: 'A long message '.repeat(40) });
      await insertEnquiry(server, { minutesAgo: 3 });
      await openInbox(page);
      const row = page.getByTestId('enquiry-row').filter({ hasText: e.name });
      await expect(row).toBeVisible();
      const scan = async () => {
        // This screen's content; the admin shell around it has its own tests.
        await settled(page);
        const result = await new AxeBuilder({ page }).include('main').analyze();
        return result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      };
      expect(await scan()).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

      // Keyboard alone: reach the row's open button and open it with Enter.
      await row.getByRole('button', { name: `Open enquiry from ${e.name}` }).focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: `Enquiry from ${e.name}` });
      await expect(dialog).toBeVisible();
      expect(await scan()).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    });
  }
});
