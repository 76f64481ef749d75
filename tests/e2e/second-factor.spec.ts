// Second factors in the browser (issue 56): a staff user turns on an authenticator app under
// Security and signs in with it (a wrong code refused, a recovery code taken once); a role that
// requires a second factor holds its users at the enrolment page; a client turns on codes in the
// portal. The API's rules (windows, replays, throttle, resets) are in tests/api/second-factor.test.ts.
import { generateHOTP } from '@oslojs/otp';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import type { Page } from '@playwright/test';
import { test, expect, ADMIN } from './fixtures.ts';
import { createStaffUser, signInAs } from './admin-helpers.ts';
import { hydrated, submitClientLogin, submitStaffLogin, toast } from './accounts-helpers.ts';
import { createClientWithPortalLogin } from '../helpers/portal-fixtures.ts';
import AxeBuilder from '@axe-core/playwright';
import { settled } from './public-helpers.ts';

const STEP_MS = 30_000;
const stepNow = () => Math.floor(Date.now() / STEP_MS);
const lastUsed = new Map<string, number>();

/**
 * A code the server has not seen for this secret, as a phone shows it: the current step's, or
 * the next one's when the current one was used (the server takes a step once, within one step
 * either side). Waits, polling the clock, only when both were used.
 */
async function nextCode(secret: string): Promise<string> {
  let step = 0;
  await expect
    .poll(() => {
      step = Math.max(stepNow(), (lastUsed.get(secret) ?? -Infinity) + 1);
      return step <= stepNow() + 1;
    }, { timeout: 2 * STEP_MS, intervals: [500] })
    .toBe(true);
  lastUsed.set(secret, step);
  return generateHOTP(decodeBase32IgnorePadding(secret), BigInt(step), 6);
}

/** A six-digit code that is not the one for any step the server would take now. */
function wrongCode(secret: string): string {
  const taken = new Set([-1, 0, 1].map((d) => generateHOTP(decodeBase32IgnorePadding(secret), BigInt(stepNow() + d), 6)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!taken.has(code)) return code;
  }
}

/** Sets up the app in an open TotpSetup form; answers the secret and the recovery codes shown. */
async function setUpApp(page: Page): Promise<{ secret: string; codes: string[] }> {
  const form = page.getByRole('form', { name: 'Set up an authenticator app' });
  await expect(form.getByTestId('totp-qr')).toBeVisible();
  const secret = (await form.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await form.getByLabel('Code from the app').fill(wrongCode(secret));
  await form.getByRole('button', { name: 'Turn on' }).click();
  await expect(form).toContainText('That code is not right');
  await form.getByLabel('Code from the app').fill(await nextCode(secret));
  await form.getByRole('button', { name: 'Turn on' }).click();
  await expect(toast(page).filter({ hasText: 'Authenticator app set up' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(list).toHaveCount(10);
  const codes = (await list.allInnerTexts()).map((c) => c.trim());
  expect(new Set(codes).size).toBe(10);
  return { secret, codes };
}

/** Ticks "saved" and leaves the recovery codes with `label`. */
async function codesSaved(page: Page, label: string) {
  const done = page.getByRole('button', { name: label, exact: true });
  await expect(done).toBeDisabled();
  await page.getByLabel('I have saved these codes somewhere safe').check();
  await done.click();
}

test('staff: an authenticator app set up under Security is asked for at the next sign-in; a wrong code is refused, a recovery code works once', async ({ page, server }) => {
  const user = await createStaffUser(server, { permissions: [], extraRoles: ['Staff'] });
  await signInAs(page, user.username, user.password, '/admin/security');
  const panel = page.getByTestId('security-panel');
  await expect(panel).toContainText('Off');
  await page.getByRole('button', { name: 'Set up authenticator app' }).click();
  const { secret, codes } = await setUpApp(page);
  await codesSaved(page, 'Done');
  await expect(panel.getByTestId('recovery-left')).toHaveText(/^10 of 10 left/);

  // A new browser: the password alone no longer signs in.
  await page.context().clearCookies();
  await submitStaffLogin(page, user.username, user.password);
  const step = page.getByRole('form', { name: 'Two-step verification' });
  await expect(step).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/auth');
  expect((await page.request.get('/api/user/second-factor')).status()).toBe(401);
  await step.getByLabel('Authentication code').fill(wrongCode(secret));
  await step.getByRole('button', { name: 'Verify' }).click();
  await expect(step).toContainText('That code is not right');
  await step.getByLabel('Authentication code').fill(await nextCode(secret));
  await step.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL('**/admin/dashboard');

  // A recovery code instead of the phone, once.
  for (const expected of ['signed in', 'refused'] as const) {
    await page.context().clearCookies();
    await submitStaffLogin(page, user.username, user.password);
    await step.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await step.getByLabel('Recovery code').fill(codes[0]!);
    await step.getByRole('button', { name: 'Verify' }).click();
    if (expected === 'signed in') await page.waitForURL('**/admin/dashboard');
    else {
      await expect(step).toContainText('already been used');
      expect(new URL(page.url()).pathname).toBe('/auth');
    }
  }
  await step.getByLabel('Recovery code').fill(codes[1]!);
  await step.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL('**/admin/dashboard');
  await page.goto('/admin/security');
  await expect(page.getByTestId('recovery-left')).toHaveText(/^8 of 10 left/);
});

test('a role that requires a second factor holds its users at the enrolment page until they set one up', async ({ page, browser, server }) => {
  const user = await createStaffUser(server, { permissions: ['view:media'], roleName: 'Needs a code', extraRoles: ['Staff'] });
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/roles');
  const zone = page.getByRole('region', { name: 'Role Needs a code' });
  await zone.getByRole('switch', { name: 'Require a second factor' }).click();
  await expect(zone.getByText('2-step')).toBeVisible();

  const context = await browser.newContext({ baseURL: server.url });
  try {
    const them = await context.newPage();
    await submitStaffLogin(them, user.username, user.password);
    await them.waitForURL('**/auth/enrol');
    // Nothing else opens: pages send them back, the API says why.
    await them.goto('/admin/dashboard');
    await them.waitForURL('**/auth/enrol');
    const api = await them.request.get('/api/media');
    expect(api.status()).toBe(403);
    expect((await api.json()).message).toBe('Your role requires a second factor. Set up an authenticator app before you go on.');
    await hydrated(them, 'form[aria-label="Set up an authenticator app"]');
    await setUpApp(them);
    await codesSaved(them, 'Continue');
    await them.waitForURL('**/admin/dashboard');
    expect((await them.request.get('/api/media')).status()).toBe(200);
  } finally {
    await context.close();
  }
});

test('client: codes turned on in the portal\'s Security dialog are asked for at the next sign-in', async ({ page, server }) => {
  const login = await createClientWithPortalLogin(server, 'Erin');
  await submitClientLogin(page, login.username, login.password);
  await page.waitForURL('**/client/dashboard');
  await hydrated(page, 'header');
  await page.getByRole('button', { name: 'Security' }).click();
  const dialog = page.getByRole('dialog', { name: 'Security' });
  await dialog.getByRole('button', { name: 'Set up authenticator app' }).click();
  const { secret } = await setUpApp(page);
  await codesSaved(page, 'Done');
  await expect(dialog.getByTestId('security-panel')).toContainText('On');

  await page.context().clearCookies();
  await submitClientLogin(page, login.username, login.password);
  const step = page.getByRole('form', { name: 'Two-step verification' });
  await expect(step).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/client/login');
  await step.getByLabel('Authentication code').fill(await nextCode(secret));
  await step.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL('**/client/dashboard');
});

test('staff: a passkey added under Security (Chromium’s virtual authenticator) signs in alone, finishes a password sign-in, and removing it asks for proof', async ({ page, server }) => {
  // A passkey belongs to a host name, never to an IP address: this test uses localhost.
  const site = server.url.replace('127.0.0.1', 'localhost');
  const user = await createStaffUser(server, { permissions: [], extraRoles: ['Staff'] });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });

  expect((await page.request.post(`${site}/api/login`, { data: { username: user.username, password: user.password } })).status()).toBe(200);
  await page.goto(`${site}/admin/security`);
  await hydrated(page, '[data-testid="security-panel"]');
  const add = page.getByRole('form', { name: 'Add a passkey' });
  await add.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(add).toContainText('Passkey name is required');
  await add.getByLabel('Name for a new passkey').fill('Test laptop');
  await add.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(toast(page).filter({ hasText: 'Passkey added' })).toBeVisible();
  // The account's first factor: ten recovery codes, shown once.
  await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await codesSaved(page, 'Done');
  await expect(page.getByTestId('passkey-list')).toContainText('Test laptop');
  expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);
  // The Security page with a passkey listed, in the dark theme: no serious axe findings.
  await page.emulateMedia({ colorScheme: 'dark' });
  await settled(page);
  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' | ')}`)).toEqual([]);

  // Signed out: the passkey alone signs in, without a username.
  await page.context().clearCookies();
  await page.goto(`${site}/auth`);
  await hydrated(page, 'form[aria-label="Staff sign-in"]');
  await page.getByRole('button', { name: 'Continue with a passkey' }).click();
  await page.waitForURL('**/admin/dashboard');
  await expect(toast(page).filter({ hasText: `Welcome back, ${user.username}!` })).toBeVisible();

  // The password now asks for the passkey as its second step.
  await page.context().clearCookies();
  await page.goto(`${site}/auth`);
  await hydrated(page, 'form[aria-label="Staff sign-in"]');
  await page.getByLabel('Username or Email').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  const step = page.getByRole('form', { name: 'Two-step verification' });
  await expect(step).toContainText('Use your passkey');
  await step.getByRole('button', { name: 'Use your passkey' }).click();
  await page.waitForURL('**/admin/dashboard');

  // Removing it asks for proof: the passkey gives it.
  await page.goto(`${site}/admin/security`);
  await hydrated(page, '[data-testid="security-panel"]');
  await page.getByRole('button', { name: 'Remove Test laptop' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove Test laptop' });
  await dialog.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(toast(page).filter({ hasText: 'Passkey removed' })).toBeVisible();
  await expect(page.getByTestId('passkey-list')).toHaveCount(0);
  await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
});
