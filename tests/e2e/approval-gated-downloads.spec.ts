// Downloads that wait for approval (issue 30), in the portal: before the current version is
// approved the card's and the dialog's download buttons say why (and the server refuses the
// file); after the client approves, the download works. Axe clean with the blocked buttons.
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { settled } from './public-helpers.ts';
import { createClientWithPortalLogin, createVideo, sampleVideo, type ClientLogin } from '../helpers/portal-fixtures.ts';

const MESSAGE = 'Downloads open once this version is approved.';

async function hydrated(page: Page, selector: string) {
  await page.locator(`astro-island:not([ssr]) ${selector}`).first().waitFor();
}

async function signInClient(page: Page, login: ClientLogin) {
  await page.goto('/client/login');
  await hydrated(page, 'form[aria-label="Client sign-in"]');
  await page.getByLabel('Username').fill(login.username);
  await page.getByLabel('Password', { exact: true }).fill(login.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/client\/dashboard$/);
  await hydrated(page, 'header');
}

const axe = (page: Page) => new AxeBuilder({ page }).exclude('astro-island:has([aria-label="Notifications (F8)"])');
const violations = async (b: AxeBuilder) => (await b.analyze()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' | ')}`);

test('the portal download button says why before approval and works after', async ({ page, server }) => {
  const login = await createClientWithPortalLogin(server, 'Waits');
  await server.sql.execute({ sql: 'UPDATE clients SET downloads_after_approval = 1 WHERE id = ?', args: [login.clientId] });
  const item = await createVideo(server, { title: 'Gated cut', clientId: login.clientId });
  await signInClient(page, login);

  // The card: no download link, a disabled button that says why.
  const card = page.getByTestId('media-card').filter({ hasText: 'Gated cut' });
  await expect(card.getByRole('link', { name: 'Download Gated cut' })).toHaveCount(0);
  const blocked = card.getByRole('button', { name: `Download Gated cut: ${MESSAGE}` });
  await expect(blocked).toBeDisabled();
  await expect(blocked).toHaveAttribute('title', MESSAGE);
  await settled(page);
  expect(await violations(axe(page))).toEqual([]);

  // The server refuses the file itself, with the same words.
  const refused = await page.request.get(`${item.url}?download=1`);
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({ message: MESSAGE });

  // The dialog: a disabled Download described by the reason.
  await page.getByRole('button', { name: 'Open Gated cut' }).click();
  const dialog = page.getByRole('dialog', { name: 'Gated cut' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Download', exact: true })).toHaveCount(0);
  const button = dialog.getByRole('button', { name: 'Download' });
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription(MESSAGE);
  await settled(page);
  expect(await violations(axe(page).include('dialog[open]'))).toEqual([]);

  // Approving opens the download.
  await dialog.getByRole('button', { name: 'Approve' }).click();
  const link = dialog.getByRole('link', { name: 'Download', exact: true });
  await expect(link).toHaveAttribute('href', `${item.url}?download=1`);
  await expect(dialog.getByTestId('download-blocked')).toHaveCount(0);
  const download = page.waitForEvent('download');
  await link.click();
  const file = await download;
  expect(await file.failure()).toBeNull();
  expect(fs.statSync(await file.path()).size).toBe(fs.statSync(sampleVideo()).size);
  await page.keyboard.press('Escape');
  await expect(card.getByRole('link', { name: 'Download Gated cut' })).toBeVisible();
});
