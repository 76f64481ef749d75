// Shared steps for the accounts browser tests.
import type { Page } from '@playwright/test';
import { ADMIN } from './fixtures.ts';

/** Waits until the island holding `selector` has hydrated (Astro drops its `ssr` attribute). */
export async function hydrated(page: Page, selector: string) {
  await page.locator(`astro-island:not([ssr]) ${selector}`).first().waitFor();
}

/** Fills the staff sign-in form once it is interactive; resolves after the answer arrives. */
export async function submitStaffLogin(page: Page, username: string, password: string) {
  await page.goto('/auth');
  await hydrated(page, 'form[aria-label="Staff sign-in"]');
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await Promise.all([page.waitForResponse('**/api/login'), page.getByRole('button', { name: 'Sign In' }).click()]);
}

/** Signs in and waits for the landing page. */
export async function signInStaff(page: Page, username = ADMIN.username, password = ADMIN.password) {
  await submitStaffLogin(page, username, password);
  await page.waitForURL((url) => url.pathname !== '/auth');
}

export async function submitClientLogin(page: Page, username: string, password: string) {
  await page.goto('/client/login');
  await hydrated(page, 'form[aria-label="Client sign-in"]');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await Promise.all([page.waitForResponse('**/api/client/login'), page.getByRole('button', { name: 'Sign In' }).click()]);
}

export const toast = (page: Page) => page.getByTestId('toast');
