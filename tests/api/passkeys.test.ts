// Passkeys (issue 56): added, named and removed on the Security page's API; the second step of a
// password sign-in; a sign-in alone without a username; refusals for another origin or site,
// another account's key, a replayed challenge, a counter going backwards, a forged signature and
// a device that did not verify its user; the policy and an administrator's reset. Answers come
// from a software authenticator (tests/helpers/passkey-authenticator.ts) signing for real. One
// server for the file; every test works on accounts and a loopback address of its own.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { adminSession, createStaffUser } from '../helpers/accounts.ts';
import { Session } from '../helpers/http.ts';
import { SoftAuthenticator, type AnswerOptions } from '../helpers/passkey-authenticator.ts';
import { enrolTotp, nextCode } from '../helpers/second-factor.ts';

let server: TestServer;
let admin: Session;
beforeAll(async () => {
  server = await startServer();
  admin = await adminSession(server.url);
});
afterAll(() => server?.stop());

let addresses = 10;
const nextAddress = () => `127.1.${Math.floor(++addresses / 250)}.${(addresses % 250) + 2}`;

const USER = '/api/user/second-factor';
const CHALLENGE_GONE = /expired or was already used/;

/** A staff user signed in with the password (no factor yet), from an address of its own, with a device of their own. */
async function staffUser(permissions: string[] = ['view:media']) {
  const u = await createStaffUser(server, { permissions });
  const from = nextAddress();
  const session = new Session(server.url, from);
  const res = await session.json('POST', '/api/login', { username: u.username, password: u.password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...u, from, session, device: new SoftAuthenticator(server.url) };
}

/** Adds a passkey made by `device` through the API; answers the POST's answer. */
async function addPasskey(session: Session, device: SoftAuthenticator, name = 'Work laptop', o: AnswerOptions = {}) {
  const options = await session.json('POST', `${USER}/passkeys/options`);
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  return session.json('POST', `${USER}/passkeys`, { name, response: device.create(options.body, o) });
}

/** A staff user holding one passkey. */
async function withPasskey() {
  const u = await staffUser();
  const added = await addPasskey(u.session, u.device);
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return { ...u, recoveryCodes: added.body.recoveryCodes as string[], passkeyId: added.body.passkey.id as number };
}

/** A new browser's password step: 202 with the factors it awaits. */
async function passwordStep(u: { username: string; password: string; from: string }) {
  const browser = new Session(server.url, u.from);
  const res = await browser.json('POST', '/api/login', { username: u.username, password: u.password });
  return { browser, res };
}

/** The second step with the passkey: challenge, then the answer `device` makes (with `o`). */
async function passkeyStep(browser: Session, device: SoftAuthenticator, o: AnswerOptions = {}) {
  const options = await browser.json('POST', '/api/login/verify/passkey-options');
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  return browser.json('POST', '/api/login/verify', { factor: 'passkey', response: device.get(options.body, o) });
}

const signedIn = async (s: Session) => (await s.json('GET', '/api/user')).status === 200;
const auditRows = async (userId: string, kind: string) =>
  (await server.sql.execute({ sql: 'SELECT factor, detail FROM audit_log WHERE object_id = ? AND kind = ? ORDER BY id', args: [userId, kind] })).rows;

describe('adding passkeys', () => {
  test('the options name this site and the user, ask for a discoverable key verified by the device; the first key answers ten recovery codes and ends the other sessions', async () => {
    const u = await staffUser();
    const other = (await passwordStep(u)).browser;
    expect(await signedIn(other)).toBe(true);
    const options = (await u.session.json('POST', `${USER}/passkeys/options`)).body;
    expect(options.rp.id).toBe(new URL(server.url).hostname);
    expect(Buffer.from(options.user.id, 'base64url').toString()).toBe(u.id);
    expect(options.user.name).toBe(u.username);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(options.attestation).toBe('none');
    const added = await u.session.json('POST', `${USER}/passkeys`, { name: '  Work laptop ', response: u.device.create(options) });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.passkey).toMatchObject({ name: 'Work laptop', lastUsedAt: null });
    expect(added.body.recoveryCodes).toHaveLength(10);
    expect(await signedIn(u.session)).toBe(true);
    expect(await signedIn(other)).toBe(false);
    const status = (await u.session.json('GET', USER)).body;
    expect(status.passkeys.map((k: { name: string }) => k.name)).toEqual(['Work laptop']);
    expect(status.recoveryCodesLeft).toBe(10);
    expect(status.totp).toBeNull();
    expect((await auditRows(u.id, 'factor.added')).map((r) => r.factor)).toEqual(['passkey']);
  });

  test('a second key answers no recovery codes; the options exclude the keys the account holds', async () => {
    const u = await withPasskey();
    const options = (await u.session.json('POST', `${USER}/passkeys/options`)).body;
    expect(options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([u.device.keys[0]!.id]);
    const second = await u.session.json('POST', `${USER}/passkeys`, { name: 'Phone', response: new SoftAuthenticator(server.url).create(options) });
    expect(second.status).toBe(201);
    expect(second.body.recoveryCodes).toBeNull();
    expect((await u.session.json('GET', USER)).body.passkeys).toHaveLength(2);
  });

  test.each([
    { name: 'another origin (a phishing page)', o: { origin: 'https://studio.example.evil' }, message: /origin/i },
    { name: 'another site', o: { rpId: 'example.org' }, message: /RP ID/i },
    { name: 'a device that did not verify its user', o: { uv: false }, message: /verif/i },
    { name: 'another challenge', o: { challenge: 'b3RoZXItY2hhbGxlbmdl' }, message: /challenge/i },
  ])('a new key from $name is refused (400) and nothing is stored', async ({ o, message }) => {
    const u = await staffUser();
    const res = await addPasskey(u.session, u.device, 'Laptop', o);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.message).toMatch(message);
    expect((await u.session.json('GET', USER)).body.passkeys).toEqual([]);
    expect((await server.sql.execute({ sql: 'SELECT count(*) AS n FROM recovery_codes WHERE user_id = ?', args: [u.id] })).rows[0]!.n).toBe(0);
  });

  test.each([
    { name: 'no name', body: (r: unknown) => ({ name: ' ', response: r }), message: /Passkey name is required/ },
    { name: 'a name too long', body: (r: unknown) => ({ name: 'x'.repeat(61), response: r }), message: /at most 60 characters/ },
    { name: 'no response', body: () => ({ name: 'Laptop' }), message: /response/ },
    { name: 'a response that is not base64url', body: (r: { id: string }) => ({ name: 'Laptop', response: { ...r, id: 'not base64url!' } }), message: /response/ },
  ])('$name is refused (400) before any check', async ({ body, message }) => {
    const u = await staffUser();
    const options = (await u.session.json('POST', `${USER}/passkeys/options`)).body;
    const res = await u.session.json('POST', `${USER}/passkeys`, body(u.device.create(options)) as object);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  test('an answer sent twice is stored once: the challenge is used up', async () => {
    const u = await staffUser();
    const options = (await u.session.json('POST', `${USER}/passkeys/options`)).body;
    const response = u.device.create(options);
    expect((await u.session.json('POST', `${USER}/passkeys`, { name: 'Laptop', response })).status).toBe(201);
    const again = await u.session.json('POST', `${USER}/passkeys`, { name: 'Laptop', response });
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(CHALLENGE_GONE);
    expect((await u.session.json('GET', USER)).body.passkeys).toHaveLength(1);
  });

  test('without a session nothing is offered or stored (401)', async () => {
    const anon = new Session(server.url, nextAddress());
    expect((await anon.json('POST', `${USER}/passkeys/options`)).status).toBe(401);
    const response = new SoftAuthenticator(server.url).create({ challenge: 'eA', rp: {}, user: { id: 'eA' } });
    expect((await anon.json('POST', `${USER}/passkeys`, { name: 'x', response })).status).toBe(401);
    expect((await anon.json('PATCH', `${USER}/passkeys/1`, { name: 'x' })).status).toBe(401);
    expect((await anon.json('DELETE', `${USER}/passkeys/1`, { code: '123456' })).status).toBe(401);
    expect((await anon.json('POST', `${USER}/passkeys/challenge`)).status).toBe(401);
  });
});

describe('the second step of a password sign-in', () => {
  test('the password answers 202 with the passkey among the factors; the passkey signs in, counts as the factor and is audited', async () => {
    const u = await withPasskey();
    const { browser, res } = await passwordStep(u);
    expect(res.status).toBe(202);
    expect(res.body.secondFactor.factors).toEqual(['passkey', 'recovery']);
    expect(res.body.message).toMatch(/passkey/);
    expect(await signedIn(browser)).toBe(false);
    const options = (await browser.json('POST', '/api/login/verify/passkey-options')).body;
    expect(options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([u.device.keys[0]!.id]);
    const done = await browser.json('POST', '/api/login/verify', { factor: 'passkey', response: u.device.get(options) });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ id: u.id, mustEnrol: false });
    expect(await signedIn(browser)).toBe(true);
    const factor = await server.sql.execute({ sql: 'SELECT second_factor FROM staff_sessions WHERE user_id = ? ORDER BY created_at DESC LIMIT 1', args: [u.id] });
    expect(factor.rows[0]!.second_factor).toBe('passkey');
    const row = (await server.sql.execute({ sql: 'SELECT counter, last_used_at FROM passkeys WHERE user_id = ?', args: [u.id] })).rows[0]!;
    expect(row.counter).toBe(1);
    expect(row.last_used_at).not.toBeNull();
    expect((await auditRows(u.id, 'sign_in.succeeded')).map((r) => r.factor)).toContain('passkey');
  });

  test.each([
    { name: 'another origin', o: () => ({ origin: 'https://studio.example.evil' }), message: /origin/i },
    { name: 'another site', o: () => ({ rpId: 'example.org' }), message: /RP ID/i },
    { name: 'a counter going backwards (a cloned key)', o: () => ({ counter: 0 }), prime: true, message: /counter/i },
    { name: 'the same counter again', o: () => ({ counter: 1 }), prime: true, message: /counter/i },
    { name: 'another challenge', o: () => ({ challenge: 'b3RoZXItY2hhbGxlbmdl' }), message: /challenge/i },
  ])('an answer from $name is refused (400), audited, and signs nothing in', async ({ o, prime, message }) => {
    const u = await withPasskey();
    if (prime) {
      // One sign-in first: the stored counter is 1.
      expect((await passkeyStep((await passwordStep(u)).browser, u.device)).status).toBe(200);
    }
    const { browser } = await passwordStep(u);
    const res = await passkeyStep(browser, u.device, o());
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.message).toMatch(message);
    expect(await signedIn(browser)).toBe(false);
    expect((await auditRows(u.id, 'sign_in.failed')).some((r) => r.factor === 'passkey')).toBe(true);
  });

  test('a forged signature is refused', async () => {
    const u = await withPasskey();
    const { browser } = await passwordStep(u);
    const options = (await browser.json('POST', '/api/login/verify/passkey-options')).body;
    const answer = u.device.get(options);
    const forged = { ...answer, response: { ...answer.response, signature: new SoftAuthenticator(server.url).create({ challenge: 'eA', rp: {}, user: { id: 'eA' } }).id } };
    const res = await browser.json('POST', '/api/login/verify', { factor: 'passkey', response: forged });
    expect(res.status).toBe(400);
    expect(await signedIn(browser)).toBe(false);
  });

  test('an answer replayed is refused: one challenge, one use', async () => {
    const u = await withPasskey();
    const first = (await passwordStep(u)).browser;
    const options = (await first.json('POST', '/api/login/verify/passkey-options')).body;
    const answer = u.device.get(options);
    expect((await first.json('POST', '/api/login/verify', { factor: 'passkey', response: answer })).status).toBe(200);
    // The same answer, from a browser that captured the cookies before the answer went.
    const second = (await passwordStep(u)).browser;
    const replay = await second.json('POST', '/api/login/verify', { factor: 'passkey', response: answer });
    expect(replay.status).toBe(400);
    expect(replay.body.message).toMatch(CHALLENGE_GONE);
    expect(await signedIn(second)).toBe(false);
  });

  test('another account’s passkey does not finish this account’s sign-in', async () => {
    const a = await withPasskey();
    const b = await withPasskey();
    const { browser } = await passwordStep(a);
    const options = (await browser.json('POST', '/api/login/verify/passkey-options')).body;
    // B's device answers A's challenge with B's key.
    const res = await browser.json('POST', '/api/login/verify', { factor: 'passkey', response: b.device.get({ ...options, allowCredentials: [] }) });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/not one of this account/);
    expect(await signedIn(browser)).toBe(false);
  });

  test('without a pending sign-in there is no challenge (401), and a passkey factor for an account without one is refused', async () => {
    const anon = new Session(server.url, nextAddress());
    const res = await anon.json('POST', '/api/login/verify/passkey-options');
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/sign-in has expired/);
    const u = await staffUser();
    const totp = await enrolTotp(u.session);
    const { browser } = await passwordStep(u);
    expect((await browser.json('POST', '/api/login/verify/passkey-options')).body.message).toBe('This account has no passkey.');
    const refused = await browser.json('POST', '/api/login/verify', { factor: 'passkey', response: u.device.create({ challenge: 'eA', rp: {}, user: { id: 'eA' } }) });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('This account has no passkey.');
    expect(totp.recoveryCodes).toHaveLength(10);
  });

  test('with an authenticator app as well, either finishes the sign-in', async () => {
    const u = await staffUser();
    const { secret } = await enrolTotp(u.session);
    expect((await addPasskey(u.session, u.device)).body.recoveryCodes).toBeNull();
    const { browser, res } = await passwordStep(u);
    expect(res.body.secondFactor.factors).toEqual(['totp', 'passkey', 'recovery']);
    expect((await passkeyStep(browser, u.device)).status).toBe(200);
    const byApp = (await passwordStep(u)).browser;
    expect((await byApp.json('POST', '/api/login/verify', { factor: 'totp', code: await nextCode(secret) })).status).toBe(200);
  });
});

describe('a passkey alone (username-less)', () => {
  async function usernameless(browser: Session, device: SoftAuthenticator, o: AnswerOptions = {}) {
    const options = await browser.json('POST', '/api/login/passkey/options');
    expect(options.status).toBe(200);
    return { options: options.body, res: await browser.json('POST', '/api/login/passkey', { response: device.get(options.body, o) }) };
  }

  test('any passkey of the site may answer; a verified one signs in as its account with the passkey as the factor', async () => {
    const u = await withPasskey();
    const browser = new Session(server.url, u.from);
    const { options, res } = await usernameless(browser, u.device);
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.userVerification).toBe('required');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: u.id, username: u.username, mustEnrol: false });
    expect(await signedIn(browser)).toBe(true);
    const rows = await auditRows(u.id, 'sign_in.succeeded');
    expect(rows.some((r) => r.factor === 'passkey' && String(r.detail).includes('usernameless'))).toBe(true);
  });

  test.each([
    { name: 'a device that did not verify its user', o: { uv: false }, status: 400, message: /verif/i },
    { name: 'another origin', o: { origin: 'https://studio.example.evil' }, status: 400, message: /origin/i },
  ])('$name is refused ($status)', async ({ o, status, message }) => {
    const u = await withPasskey();
    const browser = new Session(server.url, u.from);
    const { res } = await usernameless(browser, u.device, o);
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(message);
    expect(await signedIn(browser)).toBe(false);
  });

  test('a passkey this site does not know, and one of an inactive account, sign nothing in', async () => {
    const stranger = new SoftAuthenticator(server.url);
    stranger.create({ challenge: 'eA', rp: {}, user: { id: 'eA' } });
    const browser = new Session(server.url, nextAddress());
    const unknown = await usernameless(browser, stranger);
    expect(unknown.res.status).toBe(400);
    expect(unknown.res.body.message).toMatch(/not registered here/);
    const u = await withPasskey();
    await server.sql.execute({ sql: 'UPDATE users SET is_active = 0 WHERE id = ?', args: [u.id] });
    const inactive = await usernameless(new Session(server.url, u.from), u.device);
    expect(inactive.res.status).toBe(401);
    expect(await signedIn(browser)).toBe(false);
  });

  test('refused answers are throttled per address', async () => {
    const from = nextAddress();
    const stranger = new SoftAuthenticator(server.url);
    stranger.create({ challenge: 'eA', rp: {}, user: { id: 'eA' } });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await usernameless(new Session(server.url, from), stranger)).res.status);
    expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

describe('managing passkeys', () => {
  test('rename: the name is trimmed and checked; another user’s passkey is not found', async () => {
    const u = await withPasskey();
    const ok = await u.session.json('PATCH', `${USER}/passkeys/${u.passkeyId}`, { name: ' Studio iMac ' });
    expect(ok.status).toBe(200);
    expect(ok.body.passkey.name).toBe('Studio iMac');
    expect((await u.session.json('PATCH', `${USER}/passkeys/${u.passkeyId}`, { name: '' })).status).toBe(400);
    const other = await staffUser();
    expect((await other.session.json('PATCH', `${USER}/passkeys/${u.passkeyId}`, { name: 'Mine now' })).status).toBe(404);
    expect((await u.session.json('GET', USER)).body.passkeys[0].name).toBe('Studio iMac');
    expect((await auditRows(u.id, 'factor.renamed')).length).toBe(1);
  });

  test('remove asks for proof: none or a wrong code is refused; a passkey proves it; the last factor takes the recovery codes with it', async () => {
    const u = await withPasskey();
    const path = `${USER}/passkeys/${u.passkeyId}`;
    expect((await u.session.json('DELETE', path, {})).status).toBe(400);
    expect((await u.session.json('DELETE', path, { code: '123456' })).status).toBe(400);
    expect((await u.session.json('GET', USER)).body.passkeys).toHaveLength(1);
    const options = (await u.session.json('POST', `${USER}/passkeys/challenge`)).body;
    const res = await u.session.json('DELETE', path, { passkey: u.device.get(options) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const status = (await u.session.json('GET', USER)).body;
    expect(status.passkeys).toEqual([]);
    expect(status.recoveryCodesLeft).toBe(0);
    expect((await server.sql.execute({ sql: 'SELECT count(*) AS n FROM recovery_codes WHERE user_id = ?', args: [u.id] })).rows[0]!.n).toBe(0);
    expect((await passwordStep(u)).res.status).toBe(200);
  });

  test('a recovery code proves a removal too; another user’s passkey cannot be removed', async () => {
    const u = await withPasskey();
    const other = await withPasskey();
    const mine = await other.session.json('DELETE', `${USER}/passkeys/${u.passkeyId}`, { code: other.recoveryCodes[0] });
    expect(mine.status).toBe(404);
    const res = await u.session.json('DELETE', `${USER}/passkeys/${u.passkeyId}`, { code: u.recoveryCodes[0] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await auditRows(u.id, 'factor.removed')).map((r) => r.factor)).toEqual(['passkey']);
  });

  test('removing the authenticator app keeps the passkeys, the recovery codes and the second step', async () => {
    const u = await staffUser();
    const { secret } = await enrolTotp(u.session);
    await addPasskey(u.session, u.device);
    expect((await u.session.json('POST', `${USER}/remove`, { code: await nextCode(secret) })).status).toBe(200);
    const status = (await u.session.json('GET', USER)).body;
    expect(status.totp).toBeNull();
    expect(status.passkeys).toHaveLength(1);
    expect(status.recoveryCodesLeft).toBe(10);
    expect((await passwordStep(u)).res.body.secondFactor.factors).toEqual(['passkey', 'recovery']);
  });
});

describe('policy and reset', () => {
  test('a role requiring a second factor: a passkey is enrolment enough, reachable while enrolling', async () => {
    const u = await staffUser();
    expect((await admin.json('PUT', `/api/roles/${u.roleId}/second-factor`, { required: true })).status).toBe(200);
    const { browser, res } = await passwordStep(u);
    expect(res.body.mustEnrol).toBe(true);
    expect((await browser.json('GET', '/api/media')).status).toBe(403);
    const added = await addPasskey(browser, u.device);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect((await browser.json('GET', '/api/media')).status).toBe(200);
  });

  test('an administrator’s reset removes the passkeys and signs the user out; the users list shows the factor before', async () => {
    const u = await withPasskey();
    const users = (await admin.json('GET', '/api/users')).body as { id: string; secondFactor: boolean }[];
    expect(users.find((x) => x.id === u.id)?.secondFactor).toBe(true);
    const res = await admin.json('DELETE', `/api/users/${u.id}/second-factor`);
    expect(res.status).toBe(200);
    expect(await signedIn(u.session)).toBe(false);
    expect((await server.sql.execute({ sql: 'SELECT count(*) AS n FROM passkeys WHERE user_id = ?', args: [u.id] })).rows[0]!.n).toBe(0);
    expect((await passwordStep(u)).res.status).toBe(200);
  });
});
