// Issue 30: the Export notes menu in the admin media dialog (keyboard, formats, internal notes)
// and Download my notes (CSV) in the portal dialog — plain download links to the endpoints.
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, ADMIN } from './fixtures.ts';
import { signInAs } from './admin-helpers.ts';
import { createClientWithPortalLogin, createVideo } from '../helpers/portal-fixtures.ts';

async function hydrated(page: Page, selector: string) {
  await page.locator(`astro-island:not([ssr]) ${selector}`).first().waitFor();
}

test('admin: Export notes opens from the keyboard, offers four formats as downloads, internal notes on request', async ({ page, server }) => {
  const client = await createClientWithPortalLogin(server, 'Export');
  const film = await createVideo(server, { title: 'Export Cut', clientId: client.clientId });
  await server.sql.execute({ sql: 'INSERT INTO timeline_notes (media_id, client_user_id, timestamp_seconds, timestamp_ms, note_text, version_id) SELECT ?, ?, 1, 1500, ?, id FROM media_versions WHERE media_id = ?', args: [film.id, client.clientUserId, 'Logo, "too" early', film.id] });
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  await page.getByRole('button', { name: 'Open Export Cut' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export Cut' });
  const trigger = dialog.getByRole('button', { name: 'Export notes' });
  await expect(trigger).toBeEnabled();
  await trigger.focus();
  await page.keyboard.press('ArrowDown');
  const menu = page.getByRole('menu', { name: /Export v1 notes as/ });
  await expect(menu).toBeVisible();
  const items = menu.getByRole('menuitem');
  await expect(items).toHaveText(['DaVinci Resolve markers (EDL)', 'Final Cut Pro markers (FCPXML)', 'Premiere Pro markers (XML)', 'Spreadsheet (CSV)']);
  await expect(items.first()).toBeFocused();
  await expect(items.first()).toHaveAttribute('download', '');
  await expect(items.first()).toHaveAttribute('href', new RegExp(`^/api/media/${film.id}/versions/\\d+/markers\\?format=edl$`));
  expect((await new AxeBuilder({ page }).include('dialog[open]').analyze()).violations).toEqual([]);

  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toBe('Export Cut v1 notes - Resolve.edl');
  expect(fs.readFileSync((await download.path())!, 'utf8')).toContain('|C:ResolveColorBlue |M:Logo, "too" early |D:1');

  await dialog.getByLabel('Include internal notes').check();
  await trigger.click();
  await expect(menu.getByRole('menuitem', { name: 'Spreadsheet (CSV)' })).toHaveAttribute('href', /format=csv&internal=1$/);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(trigger).toBeFocused();
});

test('portal: Download my notes (CSV) is a download link for the version shown', async ({ page, server }) => {
  const client = await createClientWithPortalLogin(server, 'Portal Export');
  const film = await createVideo(server, { title: 'My Cut', clientId: client.clientId });
  await page.goto('/client/login');
  await hydrated(page, 'form[aria-label="Client sign-in"]');
  await page.getByLabel('Username').fill(client.username);
  await page.getByLabel('Password', { exact: true }).fill(client.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/client\/dashboard$/);
  await hydrated(page, 'header');
  await page.getByRole('button', { name: 'Open My Cut' }).click();
  const link = page.getByRole('dialog', { name: 'My Cut' }).getByRole('link', { name: 'Download my notes (CSV)' });
  await expect(link).toHaveAttribute('href', new RegExp(`^/api/client/media/${film.id}/versions/\\d+/markers\\?format=csv$`));
  await link.focus();
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toBe('My Cut v1 notes.csv');
});
