// The enquiry form against the real POST /api/contact (000 §2, §4, §5, §8).
import { test, expect, waitForIsland } from './fixtures.ts';
import type { Page } from '@playwright/test';

async function fill(page: Page, email: string) {
  await page.getByLabel('First Name').fill('Ada');
  await page.getByLabel('Last Name').fill('Lovelace');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Project Type').selectOption('music-video');
  await page.getByLabel('Message').fill('We would like a music video in the spring.');
}

test('a valid enquiry is stored, toasts and clears the form', async ({ page, server }) => {
  await page.goto('/contact');
  await waitForIsland(page, 'EnquiryForm');
  const email = `ada.${Date.now()}@example.com`;
  await fill(page, email);
  let resolveRequest!: () => void;
  const held = new Promise<void>((r) => (resolveRequest = r));
  // Hold the real request for a moment to observe the pending state, then let it through.
  await page.route('**/api/contact', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('button', { name: 'Sending...' })).toBeDisabled();
  resolveRequest();
  const toast = page.getByTestId('toast');
  await expect(toast).toContainText('Message sent!');
  await expect(toast).toContainText("Thank you for your inquiry. We'll get back to you soon.");
  await expect(page.getByLabel('First Name')).toHaveValue('');
  await expect(page.getByLabel('Message')).toHaveValue('');
  await expect(page.getByLabel('Project Type')).toHaveValue('');
  const rows = await server.sql.execute({ sql: 'select first_name, last_name, project_type, message from enquiries where email = ?', args: [email] });
  expect(rows.rows).toHaveLength(1);
  expect(rows.rows[0]).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', project_type: 'music-video' });
});

test('required fields are checked by the browser before anything is sent', async ({ page }) => {
  await page.goto('/contact');
  let posted = false;
  page.on('request', (r) => r.url().endsWith('/api/contact') && (posted = true));
  await page.getByRole('button', { name: 'Send Message' }).click();
  expect(await page.getByLabel('First Name').evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
  await page.getByLabel('First Name').fill('A');
  await page.getByLabel('Last Name').fill('B');
  await page.getByLabel('Email', { exact: true }).fill('not-an-email');
  await page.getByLabel('Message').fill('Hi');
  await page.getByRole('button', { name: 'Send Message' }).click();
  expect(await page.getByLabel('Email', { exact: true }).evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true);
  expect(posted).toBe(false);
});

test('when the server refuses (rate limit, 429) the toast says why and the values stay', async ({ page }) => {
  await page.goto('/contact');
  // Real server: keep sending from this address until it answers 429 (more than 5 in 10 minutes).
  let status = 0;
  for (let i = 0; i < 12 && status !== 429; i++) {
    const res = await page.request.post('/api/contact', {
      data: { firstName: 'Rate', lastName: 'Limit', email: `rl${i}@example.com`, projectType: '', message: 'filler' },
      headers: { Origin: new URL(page.url()).origin },
    });
    status = res.status();
  }
  expect(status).toBe(429);
  await fill(page, 'kept@example.com');
  await page.getByRole('button', { name: 'Send Message' }).click();
  const toast = page.getByTestId('toast');
  await expect(toast).toContainText('Failed to send message');
  await expect(toast).toHaveAttribute('data-variant', 'destructive');
  await expect(page.getByLabel('First Name')).toHaveValue('Ada');
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue('kept@example.com');
  await expect(page.getByLabel('Project Type')).toHaveValue('music-video');
  await expect(page.getByRole('button', { name: 'Send Message' })).toBeEnabled();
});
