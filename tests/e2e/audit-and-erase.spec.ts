// The audit log screen (issue 56): filter by kind and person, page with Older/Newer, export the
// filtered rows as CSV; and erasing a client from its card, with the name typed to confirm.
import fs from 'node:fs';
import { test, expect, ADMIN } from './fixtures.ts';
import { Session, staffSession } from '../helpers/http.ts';
import { signInStaff, toast } from './accounts-helpers.ts';

test('the audit screen filters, pages and exports CSV', async ({ page, server }) => {
  const admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  // 57 saves (more than a page of 50) and two failed sign-ins.
  for (let i = 0; i < 57; i++) expect((await admin.json('PUT', '/api/contact-info', { contactPhone: `0116 496 ${String(i).padStart(4, '0')}` })).status).toBe(200);
  for (let i = 0; i < 2; i++) await new Session(server.url).json('POST', '/api/login', { username: `stranger${i}`, password: 'wrong-password' });

  await signInStaff(page);
  await page.goto('/admin/audit');
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const rows = page.getByTestId('audit-row');
  await expect(rows).toHaveCount(50);

  await page.getByLabel('Kind').selectOption('sign_in.failed');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('Sign-in failed');
  await expect(rows.first()).toContainText('stranger1');

  await page.getByLabel('Kind').selectOption('settings.changed');
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText('settings contact');
  // A person in a row filters by them.
  await rows.first().getByRole('button', { name: 'Studio Admin (admin)' }).click();
  await expect(page.getByLabel('Person')).toHaveValue(/^staff:/);
  await expect(rows).toHaveCount(50);

  const top = () => rows.first().locator('td').first().getAttribute('title');
  const page1Top = await top();
  await page.getByRole('button', { name: 'Older' }).click();
  await expect(page.getByTestId('audit-page')).toHaveText('Page 2');
  await expect(rows).toHaveCount(7);
  await expect(page.getByRole('button', { name: 'Older' })).toBeDisabled();
  await page.getByRole('button', { name: 'Newer' }).click();
  await expect(page.getByTestId('audit-page')).toHaveText('Page 1');
  await expect(rows).toHaveCount(50);
  expect(await top()).toBe(page1Top);

  const download = page.waitForEvent('download');
  await page.getByTestId('audit-csv').click();
  const file = await (await download).path();
  const lines = fs.readFileSync(file!, 'utf8').trim().split('\r\n');
  expect(lines[0]).toMatch(/^id,when \(UTC\),kind,what,/);
  expect(lines.length - 1).toBe(57);
  expect(lines.slice(1).every((l) => l.includes(',settings.changed,Settings changed,'))).toBe(true);
});

test('erase a client from its card: the name typed again, then gone, audited', async ({ page, server }) => {
  const admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const created = await admin.json('POST', '/api/clients', { name: 'Harbour Films', email: 'team@harbour.test', username: 'harbour', password: 'portal-pass-1' });
  expect(created.status).toBe(201);

  await signInStaff(page);
  await page.goto('/admin/clients');
  const card = page.getByTestId('client-card').filter({ hasText: 'Harbour Films' });
  await expect(card.getByRole('link', { name: 'Export data for Harbour Films' })).toHaveAttribute('href', `/api/clients/${created.body.id}/export`);
  await card.getByRole('button', { name: 'Erase Harbour Films' }).click();
  const dialog = page.getByRole('dialog', { name: 'Erase Harbour Films' });
  const erase = dialog.getByRole('button', { name: 'Erase client' });
  await expect(erase).toBeDisabled();
  await dialog.getByLabel('Type “Harbour Films” to confirm').fill('Harbour');
  await expect(erase).toBeDisabled();
  await dialog.getByLabel('Type “Harbour Films” to confirm').fill('Harbour Films');
  await erase.click();
  await expect(toast(page)).toContainText('Client erased');
  await expect(card).toHaveCount(0);

  await page.goto('/admin/audit');
  await page.getByLabel('Kind').selectOption('client.erased');
  await expect(page.getByTestId('audit-row')).toHaveCount(1);
  await expect(page.getByTestId('audit-row')).toContainText('Former client');
});
