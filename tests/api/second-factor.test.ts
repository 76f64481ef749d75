// Second factors (issue 56): authenticator codes at sign-in for staff and clients, recovery
// codes, "trust this browser", the per-role policy (enrol first), an administrator's reset, and
// that no path signs in with a password alone where a factor is due. One server for the file;
// every test works on accounts of its own, from a loopback address of its own (the throttle
// counts per address).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { adminSession, createClientWithLogin, createStaffUser } from '../helpers/accounts.ts';
import { Session } from '../helpers/http.ts';
import { enrolTotp, freshCode, nextCode, totpCode, awayFromStepEdge } from '../helpers/second-factor.ts';

let server: TestServer;
let admin: Session;
beforeAll(async () => {
  server = await startServer();
  admin = await adminSession(server.url);
});
afterAll(() => server?.stop());

let addresses = 10;
/** A loopback address no other test of this file uses. */
const nextAddress = () => `127.0.${Math.floor(++addresses / 250)}.${(addresses % 250) + 2}`;

const USER = '/api/user/second-factor';
const CLIENT = '/api/client/second-factor';

/** A staff user (its own role, `permissions`) and a session of theirs signed in with the password, from its own address. */
async function staffUser(permissions: string[] = ['view:media']) {
  const u = await createStaffUser(server, { permissions });
  const from = nextAddress();
  const session = new Session(server.url, from);
  const res = await session.json('POST', '/api/login', { username: u.username, password: u.password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...u, from, session };
}

/** A staff user with an authenticator app set up. */
async function enrolledStaff(permissions?: string[]) {
  const u = await staffUser(permissions);
  return { ...u, ...(await enrolTotp(u.session)) };
}

/** Step one of a sign-in from a new browser at `from`: answers the browser and the answer. */
async function passwordStep(username: string, password: string, from: string, path = '/api/login', browser = new Session(server.url, from)) {
  const res = await browser.json('POST', path, { username, password });
  return { browser, res };
}

const signedInAsStaff = async (s: Session) => (await s.json('GET', '/api/user')).status === 200;

describe('enrolment', () => {
  test('start answers the secret as text, an otpauth URI and a QR code; nothing is stored in clear', async () => {
    const u = await staffUser();
    const { status, body } = await u.session.json('POST', `${USER}/totp`);
    expect(status).toBe(200);
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.uri).toMatch(new RegExp(`^otpauth://totp/[^?]+:${u.username}\\?`));
    expect(new URL(body.uri).searchParams.get('secret')).toBe(body.secret);
    expect(body.qr.size).toBeGreaterThan(20);
    expect(body.qr.path).toMatch(/^M\d+ \d+h1v1h-1z/);
    const row = (await server.sql.execute({ sql: 'SELECT secret_enc, confirmed_at FROM totp_factors WHERE user_id = ?', args: [u.id] })).rows[0]!;
    expect(row.confirmed_at).toBeNull();
    expect(String(row.secret_enc)).toMatch(/^v1:/);
    // Neither the base32 text nor the raw bytes are in the row (a database dump alone gives no codes).
    expect(String(row.secret_enc)).not.toContain(body.secret);
    expect(Buffer.from(String(row.secret_enc).slice(3), 'base64').includes(Buffer.from(body.secret))).toBe(false);
  });

  test('an enrolment abandoned half way leaves no lock-out: the next sign-in asks for the password alone', async () => {
    const u = await staffUser();
    expect((await u.session.json('POST', `${USER}/totp`)).status).toBe(200);
    const { res, browser } = await passwordStep(u.username, u.password, u.from);
    expect(res.status).toBe(200);
    expect(await signedInAsStaff(browser)).toBe(true);
    // Starting again replaces the unconfirmed secret; the first one's codes no longer confirm.
    const first = (await browser.json('POST', `${USER}/totp`)).body.secret;
    const second = (await browser.json('POST', `${USER}/totp`)).body.secret;
    expect(second).not.toBe(first);
    const stale = await browser.json('POST', `${USER}/totp/confirm`, { code: await nextCode(first) });
    expect(stale.status).toBe(400);
    expect(stale.body.message).toMatch(/not right/);
  });

  test.each([
    { name: 'a wrong code', code: () => '000000', status: 400, message: /not right/ },
    { name: 'not six digits', code: () => '12345', status: 400, message: /6-digit code/ },
    { name: 'a code two steps old', code: (s: string) => totpCode(s, -2), status: 400, message: /expired/ },
  ])('confirming with $name is refused ($status) and nothing is set up', async ({ code, status, message }) => {
    const u = await staffUser();
    const { secret } = (await u.session.json('POST', `${USER}/totp`)).body;
    await awayFromStepEdge();
    const res = await u.session.json('POST', `${USER}/totp/confirm`, { code: code(secret) });
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(message);
    expect((await u.session.json('GET', USER)).body.totp).toBeNull();
  });

  test('confirming answers ten distinct recovery codes once, ends the other sessions and keeps this one', async () => {
    const u = await staffUser();
    const other = (await passwordStep(u.username, u.password, u.from)).browser;
    expect(await signedInAsStaff(other)).toBe(true);
    const { recoveryCodes } = await enrolTotp(u.session);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const c of recoveryCodes) expect(c).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    expect(await signedInAsStaff(u.session)).toBe(true);
    expect(await signedInAsStaff(other)).toBe(false);
    const status = (await u.session.json('GET', USER)).body;
    expect(status).toMatchObject({ required: false, recoveryCodesLeft: 10, trustedBrowsers: 0, thisBrowserTrusted: false });
    expect(status.totp.since).toBeTruthy();
    // Only hashes are kept.
    const stored = (await server.sql.execute({ sql: 'SELECT code_hash FROM recovery_codes WHERE user_id = ?', args: [u.id] })).rows.map((r) => String(r.code_hash));
    expect(stored).toHaveLength(10);
    for (const c of recoveryCodes) expect(stored.join()).not.toContain(c.replace(/-/g, ''));
    // A second app cannot be started over the first.
    const again = await u.session.json('POST', `${USER}/totp`);
    expect(again.status).toBe(409);
  });
});

describe('signing in with a code', () => {
  test('the password alone answers 202 and opens nothing; the code signs in', async () => {
    const u = await enrolledStaff();
    const { browser, res } = await passwordStep(u.username, u.password, u.from);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: expect.any(String), secondFactor: { factors: ['totp', 'recovery'] } });
    expect(browser.cookies.has('studio_session')).toBe(false);
    expect(await signedInAsStaff(browser)).toBe(false);
    const done = await browser.json('POST', '/api/login/verify', { factor: 'totp', code: await nextCode(u.secret) });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ id: u.id, username: u.username, mustEnrol: false });
    expect(await signedInAsStaff(browser)).toBe(true);
    // The pending sign-in is over: the same browser cannot finish it again.
    const twice = await browser.json('POST', '/api/login/verify', { factor: 'totp', code: totpCode(u.secret, 1) });
    expect(twice.status).toBe(401);
    expect(twice.body.message).toMatch(/sign-in has expired/);
  });

  // Each row on an account of its own: an accepted code claims its step.
  test.each([
    { offset: -1, status: 200, message: null },
    { offset: 0, status: 200, message: null },
    { offset: 1, status: 200, message: null },
    { offset: -2, status: 401, message: /expired/ },
    { offset: -9, status: 401, message: /expired/ },
    { offset: 2, status: 401, message: /not right/ },
  ])('clock skew: a code $offset step(s) from now answers $status', async ({ offset, status, message }) => {
    const u = await enrolledStaff();
    const { browser } = await passwordStep(u.username, u.password, u.from);
    // Enrolment claimed a step (its confirming code): move that claim back, so each row tests
    // the window and not the replay rule.
    await server.sql.execute({ sql: 'UPDATE totp_factors SET last_used_step = last_used_step - 5 WHERE user_id = ?', args: [u.id] });
    const res = await browser.json('POST', '/api/login/verify', { factor: 'totp', code: await freshCode(u.secret, offset) });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (message) expect(res.body.message).toMatch(message);
    expect(await signedInAsStaff(browser)).toBe(status === 200);
  });

  test('a code is accepted once: the same code again, or an older one after it, is refused as used', async () => {
    const u = await enrolledStaff();
    await awayFromStepEdge();
    const code = await nextCode(u.secret);
    const first = await passwordStep(u.username, u.password, u.from);
    expect((await first.browser.json('POST', '/api/login/verify', { factor: 'totp', code })).status).toBe(200);
    for (const replay of [code, totpCode(u.secret, -1)]) {
      const { browser } = await passwordStep(u.username, u.password, u.from);
      const res = await browser.json('POST', '/api/login/verify', { factor: 'totp', code: replay });
      expect(res.status).toBe(401);
      expect(res.body.message).toMatch(/already been used/);
    }
  });

  test('two requests with the same code at once: exactly one signs in', async () => {
    const u = await enrolledStaff();
    const a = await passwordStep(u.username, u.password, u.from);
    const b = await passwordStep(u.username, u.password, u.from);
    const code = await nextCode(u.secret);
    const answers = await Promise.all([a, b].map(({ browser }) => browser.json('POST', '/api/login/verify', { factor: 'totp', code })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  test.each([
    { name: 'no factor', body: { code: '123456' }, message: /factor must be one of totp, recovery/ },
    { name: 'an unknown factor', body: { factor: 'sms', code: '123456' }, message: /factor must be one of/ },
    { name: 'letters for an app code', body: { factor: 'totp', code: 'abcdef' }, message: /6-digit code/ },
    { name: 'a short recovery code', body: { factor: 'recovery', code: 'abcd-efgh' }, message: /recovery codes/ },
    { name: 'trustBrowser not a boolean', body: { factor: 'totp', code: '123456', trustBrowser: 'yes' }, message: /trustBrowser/ },
  ])('a second step with $name answers 400 naming it', async ({ body, message }) => {
    const res = await new Session(server.url, nextAddress()).json('POST', '/api/login/verify', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  test('a second step without a pending sign-in (none, or expired) answers 401 asking for the password again', async () => {
    const u = await enrolledStaff();
    const none = await new Session(server.url, u.from).json('POST', '/api/login/verify', { factor: 'totp', code: totpCode(u.secret) });
    expect(none.status).toBe(401);
    expect(none.body.message).toMatch(/enter your username and password again/i);
    const { browser } = await passwordStep(u.username, u.password, u.from);
    await server.sql.execute({ sql: 'UPDATE pending_sign_ins SET expires_at = ? WHERE user_id = ?', args: [Date.now() - 1, u.id] });
    const expired = await browser.json('POST', '/api/login/verify', { factor: 'totp', code: totpCode(u.secret) });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/sign-in has expired/);
  });

  test('wrong codes are throttled like passwords: the sixth try answers 429, the right code included, and a right password does not clear it', async () => {
    const u = await enrolledStaff();
    const { browser } = await passwordStep(u.username, u.password, u.from);
    for (let i = 0; i < 5; i++) {
      const res = await browser.json('POST', '/api/login/verify', { factor: 'totp', code: String(100000 + i) });
      expect(res.status).toBe(401);
    }
    const again = await passwordStep(u.username, u.password, u.from);
    expect(again.res.status).toBe(202);
    // Refused before it is checked, so it is not used up (the right code for the next step).
    const blocked = await again.browser.json('POST', '/api/login/verify', { factor: 'totp', code: totpCode(u.secret, 1) });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/too many/i);
    // From another address (the pair is per address) the right code still works.
    const elsewhere = await passwordStep(u.username, u.password, nextAddress());
    expect((await elsewhere.browser.json('POST', '/api/login/verify', { factor: 'totp', code: await nextCode(u.secret) })).status).toBe(200);
  });
});

describe('recovery codes', () => {
  test('a recovery code signs in once; used twice, or wrong, it is refused', async () => {
    const u = await enrolledStaff();
    const [code] = u.recoveryCodes;
    const first = await passwordStep(u.username, u.password, u.from);
    expect((await first.browser.json('POST', '/api/login/verify', { factor: 'recovery', code: code!.toUpperCase().replace(/-/g, ' ') })).status).toBe(200);
    expect((await first.browser.json('GET', USER)).body.recoveryCodesLeft).toBe(9);
    for (const [attempt, message] of [
      [code!, /already been used/],
      ['aaaa-bbbb-cccc-dddd', /not right/],
    ] as const) {
      const { browser } = await passwordStep(u.username, u.password, u.from);
      const res = await browser.json('POST', '/api/login/verify', { factor: 'recovery', code: attempt });
      expect(res.status).toBe(401);
      expect(res.body.message).toMatch(message);
    }
  });

  test('new recovery codes need a code; the old ones stop working', async () => {
    const u = await enrolledStaff();
    const refused = await u.session.json('POST', `${USER}/recovery-codes`, { code: '000000' });
    expect(refused.status).toBe(401);
    const renewed = await u.session.json('POST', `${USER}/recovery-codes`, { code: u.recoveryCodes[0] });
    expect(renewed.status).toBe(200);
    expect(renewed.body.recoveryCodes).toHaveLength(10);
    const { browser } = await passwordStep(u.username, u.password, u.from);
    expect((await browser.json('POST', '/api/login/verify', { factor: 'recovery', code: u.recoveryCodes[1] })).status).toBe(401);
    expect((await browser.json('POST', '/api/login/verify', { factor: 'recovery', code: renewed.body.recoveryCodes[1] })).status).toBe(200);
  });
});

describe('trust this browser', () => {
  test('a browser trusted at the second step skips it for 30 days; another browser does not; forgetting ends it', async () => {
    const u = await enrolledStaff();
    const { browser } = await passwordStep(u.username, u.password, u.from);
    expect((await browser.json('POST', '/api/login/verify', { factor: 'totp', code: await nextCode(u.secret), trustBrowser: true })).status).toBe(200);
    const until = Number((await server.sql.execute({ sql: "SELECT second_factor_until FROM trusted_devices WHERE account = ? AND second_factor_until IS NOT NULL", args: [`staff:${u.id}`] })).rows[0]!.second_factor_until);
    expect(until - Date.now()).toBeGreaterThan(29.9 * 86_400_000);
    expect(until - Date.now()).toBeLessThanOrEqual(30 * 86_400_000);
    expect((await browser.json('GET', USER)).body).toMatchObject({ trustedBrowsers: 1, thisBrowserTrusted: true });
    await browser.json('POST', '/api/logout');
    // The same browser (its device cookie kept): the password alone signs in.
    const trusted = await passwordStep(u.username, u.password, u.from, '/api/login', browser);
    expect(trusted.res.status).toBe(200);
    expect(await signedInAsStaff(browser)).toBe(true);
    // A device that only signed in before is not trusted; a new browser neither.
    expect((await passwordStep(u.username, u.password, u.from, '/api/login', u.session)).res.status).toBe(202);
    expect((await passwordStep(u.username, u.password, u.from)).res.status).toBe(202);
    // Past its 30 days the browser asks again.
    await server.sql.execute({ sql: 'UPDATE trusted_devices SET second_factor_until = ? WHERE account = ?', args: [Date.now() - 1, `staff:${u.id}`] });
    expect((await passwordStep(u.username, u.password, u.from, '/api/login', browser)).res.status).toBe(202);
  });

  test('"forget trusted browsers" makes every browser ask again', async () => {
    const u = await enrolledStaff();
    const { browser } = await passwordStep(u.username, u.password, u.from);
    expect((await browser.json('POST', '/api/login/verify', { factor: 'totp', code: await nextCode(u.secret), trustBrowser: true })).status).toBe(200);
    expect((await browser.json('DELETE', `${USER}/trusted-browsers`)).status).toBe(200);
    expect((await browser.json('GET', USER)).body.trustedBrowsers).toBe(0);
    expect((await passwordStep(u.username, u.password, u.from, '/api/login', browser)).res.status).toBe(202);
  });
});

describe('no path signs in with one factor where two are due', () => {
  test('a session made without the factor (any path: registration, an old session, one written by hand) counts for nothing and is deleted', async () => {
    const u = await enrolledStaff();
    const { generateSessionToken, sessionIdFromToken } = await import('../../src/server/auth/tokens.ts');
    const token = generateSessionToken();
    const id = sessionIdFromToken(token);
    await server.sql.execute({ sql: 'INSERT INTO staff_sessions (id, user_id, expires_at) VALUES (?, ?, ?)', args: [id, u.id, Date.now() + 86_400_000] });
    const forged = new Session(server.url, u.from);
    forged.cookies.set('studio_session', token);
    expect((await forged.json('GET', '/api/user')).status).toBe(401);
    expect((await server.sql.execute({ sql: 'SELECT count(*) AS n FROM staff_sessions WHERE id = ?', args: [id] })).rows[0]!.n).toBe(0);
  });

  test('changing one\'s own password keeps the session\'s factor (the new session still opens everything)', async () => {
    const u = await enrolledStaff(['view:media', 'edit:users']);
    const me = (await u.session.json('GET', '/api/user')).body;
    const res = await u.session.json('PUT', `/api/users/${u.id}`, { username: me.username, email: me.email, forename: me.forename, surname: me.surname, displayName: me.displayName, isActive: true, password: 'a-new-password-456' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await signedInAsStaff(u.session)).toBe(true);
    expect((await passwordStep(u.username, 'a-new-password-456', u.from)).res.status).toBe(202);
  });

  test.each([
    { route: 'staff /api/login', path: '/api/login', verify: '/api/login/verify', probe: '/api/user', kind: 'staff' as const },
    { route: 'client /api/client/login', path: '/api/client/login', verify: '/api/client/login/verify', probe: '/api/client/profile', kind: 'client' as const },
  ])('$route: the password alone sets no session cookie and opens nothing; wrong passwords still answer 401', async ({ path, verify, probe, kind }) => {
    let username: string, password: string, secret: string;
    if (kind === 'staff') {
      ({ username, password, secret } = await enrolledStaff());
    } else {
      const c = await createClientWithLogin(server);
      const s = new Session(server.url, nextAddress());
      expect((await s.json('POST', path, { username: c.username, password: c.password })).status).toBe(200);
      ({ secret } = await enrolTotp(s, CLIENT));
      ({ username, password } = c);
    }
    const from = nextAddress();
    expect((await passwordStep(username, 'wrong-password', from, path)).res.status).toBe(401);
    const { browser, res } = await passwordStep(username, password, from, path);
    expect(res.status).toBe(202);
    expect([...browser.cookies.keys()].filter((k) => /session/.test(k))).toEqual([]);
    expect((await browser.json('GET', probe)).status).toBe(401);
    expect((await browser.json('POST', verify, { factor: 'totp', code: await nextCode(secret) })).status).toBe(200);
    expect((await browser.json('GET', probe)).status).toBe(200);
  });
});

describe('policy: a role that requires a second factor', () => {
  async function requiringRole() {
    const u = await staffUser(['view:media', 'share:media']);
    const res = await admin.json('PUT', `/api/roles/${u.roleId}/second-factor`, { required: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.requiresSecondFactor).toBe(true);
    return u;
  }

  test('its users sign in to "enrol first": every page and API but enrolment and sign-out refuses them', async () => {
    const u = await requiringRole();
    const { browser, res } = await passwordStep(u.username, u.password, u.from);
    expect(res.status).toBe(200);
    expect(res.body.mustEnrol).toBe(true);
    for (const path of ['/api/user', '/api/media', '/api/user/roles', '/api/share-links', '/api/health']) {
      const r = await browser.json('GET', path);
      expect(r.status, path).toBe(403);
      expect(r.body.message, path).toMatch(/requires a second factor/);
    }
    for (const path of ['/admin/dashboard', '/admin/media', '/', '/auth', '/admin/security']) {
      const r = await browser.get(path);
      expect(r.status, path).toBe(302);
      expect(r.headers.get('location'), path).toBe('/auth/enrol');
    }
    expect((await browser.get('/auth/enrol')).status).toBe(200);
    expect((await browser.json('GET', USER)).body.required).toBe(true);
    // The session already open before the policy changed is held the same way.
    expect((await u.session.json('GET', '/api/media')).status).toBe(403);
    await enrolTotp(browser);
    expect((await browser.json('GET', '/api/media')).status).toBe(200);
    expect((await browser.get('/admin/media')).status).toBe(200);
    // The old password-only session ended with the enrolment.
    expect(await signedInAsStaff(u.session)).toBe(false);
    // And sign-out stays open while enrolling.
    const other = await requiringRole();
    expect((await other.session.json('POST', '/api/logout')).status).toBe(200);
    expect((await other.session.json('GET', USER)).status).toBe(401);
  });

  test('turning the policy off lets them in again; the roles list says which roles require it', async () => {
    const u = await requiringRole();
    expect((await u.session.json('GET', '/api/media')).status).toBe(403);
    const roles = (await admin.json('GET', '/api/roles')).body as { id: number; requiresSecondFactor: boolean }[];
    expect(roles.find((r) => r.id === u.roleId)!.requiresSecondFactor).toBe(true);
    expect(roles.find((r) => r.id !== u.roleId)!.requiresSecondFactor).toBe(false);
    expect((await admin.json('PUT', `/api/roles/${u.roleId}/second-factor`, { required: false })).status).toBe(200);
    expect((await u.session.json('GET', '/api/media')).status).toBe(200);
  });

  test.each([
    { who: 'staff without edit:roles', permissions: ['view:media'], role: 'own', status: 403, message: /edit:roles/ },
    { who: 'staff with edit:roles but not the role\'s permissions', permissions: ['edit:roles'], role: 'Admin', status: 403, message: /permissions you don't have/ },
    { who: 'an admin, on the protected Client role', permissions: null, role: 'Client', status: 403, message: /protected/ },
    { who: 'an admin, with a body that is not a boolean', permissions: null, role: 'Admin', status: 400, message: /required must be true or false/ },
  ])('changing the policy: $who answers $status', async ({ permissions, role, status, message }) => {
    const actor = permissions ? (await staffUser(permissions)) : null;
    const session = actor?.session ?? admin;
    const roles = (await admin.json('GET', '/api/roles')).body as { id: number; name: string }[];
    const roleId = role === 'own' ? actor!.roleId : roles.find((r) => r.name === role)!.id;
    const res = await session.json('PUT', `/api/roles/${roleId}/second-factor`, { required: status === 400 ? 'yes' : true });
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(message);
  });
});

describe("an administrator's reset", () => {
  test("resets another user's factor and signs them out everywhere; they sign in with the password again", async () => {
    const u = await enrolledStaff();
    const { browser } = await passwordStep(u.username, u.password, u.from);
    expect((await browser.json('POST', '/api/login/verify', { factor: 'totp', code: await nextCode(u.secret), trustBrowser: true })).status).toBe(200);
    const users = (await admin.json('GET', '/api/users')).body as { id: string; secondFactor: boolean }[];
    expect(users.find((x) => x.id === u.id)!.secondFactor).toBe(true);
    const res = await admin.json('DELETE', `/api/users/${u.id}/second-factor`);
    expect(res.status).toBe(200);
    expect(await signedInAsStaff(u.session)).toBe(false);
    expect(await signedInAsStaff(browser)).toBe(false);
    expect((await admin.json('GET', '/api/users')).body.find((x: { id: string }) => x.id === u.id).secondFactor).toBe(false);
    expect((await passwordStep(u.username, u.password, u.from)).res.status).toBe(200);
    expect((await server.sql.execute({ sql: 'SELECT count(*) AS n FROM recovery_codes WHERE user_id = ?', args: [u.id] })).rows[0]!.n).toBe(0);
    expect(Number((await server.sql.execute({ sql: 'SELECT count(*) AS n FROM trusted_devices WHERE account = ? AND second_factor_until IS NOT NULL', args: [`staff:${u.id}`] })).rows[0]!.n)).toBe(0);
    // Nothing left to reset.
    expect((await admin.json('DELETE', `/api/users/${u.id}/second-factor`)).status).toBe(409);
  });

  test.each([
    { who: 'oneself', status: 403, message: /your own second factor/ },
    { who: 'staff without edit:users', status: 403, message: /edit:users/ },
    { who: 'staff with edit:users, on a user holding more', status: 403, message: /permissions you don't have/ },
    { who: 'an unknown user', status: 404, message: /User not found/ },
  ])('a reset by $who answers $status', async ({ who, status, message }) => {
    // Oneself: a user who may reset others (edit:users) still may not reset their own.
    const target = await enrolledStaff(who === 'oneself' ? ['view:users', 'edit:users'] : ['view:media', 'share:media']);
    let session = admin;
    let id = target.id;
    if (who === 'oneself') ({ session, id } = target);
    if (who === 'staff without edit:users') session = (await staffUser(['view:users'])).session;
    if (who === 'staff with edit:users, on a user holding more') session = (await staffUser(['view:users', 'edit:users'])).session;
    if (who === 'an unknown user') id = '00000000-0000-4000-8000-000000000000';
    const res = await session.json('DELETE', `/api/users/${id}/second-factor`);
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(message);
    expect((await target.session.json('GET', USER)).body.totp).not.toBeNull();
  });

  test('removing one\'s own factor takes a code from it or a recovery code', async () => {
    const u = await enrolledStaff();
    for (const code of ['', '000000', 'aaaa-bbbb-cccc-dddd']) {
      const res = await u.session.json('POST', `${USER}/remove`, { code });
      expect(res.status, code).toBe(code ? 401 : 400);
    }
    expect((await u.session.json('POST', `${USER}/remove`, { code: u.recoveryCodes[3] })).status).toBe(200);
    expect((await u.session.json('GET', USER)).body).toMatchObject({ totp: null, recoveryCodesLeft: 0 });
    expect((await passwordStep(u.username, u.password, u.from)).res.status).toBe(200);
  });
});

describe('client portal logins', () => {
  test('a client turns codes on, signs in with one, and staff can reset it (signing them out)', async () => {
    const c = await createClientWithLogin(server);
    const from = nextAddress();
    const { browser } = await passwordStep(c.username, c.password, from, '/api/client/login');
    expect((await browser.json('GET', CLIENT)).body).toMatchObject({ required: false, totp: null });
    const { secret } = await enrolTotp(browser, CLIENT);
    const clients = (await admin.json('GET', '/api/clients')).body as { id: number; secondFactor: boolean }[];
    expect(clients.find((x) => x.id === c.clientId)!.secondFactor).toBe(true);
    const step = await passwordStep(c.username, c.password, from, '/api/client/login');
    expect(step.res.status).toBe(202);
    const done = await step.browser.json('POST', '/api/client/login/verify', { factor: 'totp', code: await nextCode(secret) });
    expect(done.status).toBe(200);
    expect(done.body.clientUser.username).toBe(c.username);
    // A staff code step does not finish a client's sign-in, nor the other way round.
    const crossed = await step.browser.json('POST', '/api/login/verify', { factor: 'totp', code: totpCode(secret, 1) });
    expect(crossed.status).toBe(401);
    expect((await admin.json('DELETE', `/api/clients/${c.clientId}/second-factor`)).status).toBe(200);
    expect((await step.browser.json('GET', '/api/client/profile')).status).toBe(401);
    expect((await passwordStep(c.username, c.password, from, '/api/client/login')).res.status).toBe(200);
  });

  test('a client turns codes off with a code; staff without edit:clients cannot reset', async () => {
    const c = await createClientWithLogin(server);
    const { browser } = await passwordStep(c.username, c.password, nextAddress(), '/api/client/login');
    const { secret } = await enrolTotp(browser, CLIENT);
    const viewer = (await staffUser(['view:clients'])).session;
    expect((await viewer.json('DELETE', `/api/clients/${c.clientId}/second-factor`)).status).toBe(403);
    expect((await browser.json('POST', `${CLIENT}/remove`, { code: await nextCode(secret) })).status).toBe(200);
    expect((await browser.json('GET', CLIENT)).body.totp).toBeNull();
  });
});

// Last: it stops and restarts the file's server.
test('the server key the secrets are sealed with, once lost, stops start-up rather than lock everyone out silently', async () => {
  await enrolledStaff();
  const keyFile = path.join(server.dir, 'share-link.key');
  const key = fs.readFileSync(keyFile);
  await server.kill();
  fs.rmSync(keyFile);
  await expect(server.restart()).rejects.toThrow(/share-link\.key is missing, but \d+ authenticator app secret\(s\) in the database were encrypted with it/);
  fs.writeFileSync(keyFile, key, { mode: 0o600 });
  await server.restart();
}, 90_000);
