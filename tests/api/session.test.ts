import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { Session, staffSession } from '../helpers/http.ts';
import { hashPassword } from '../../src/server/auth/password.ts';

const DAY = 86_400_000;
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

const sha256 = (t: string) => createHash('sha256').update(t).digest('hex');

async function rawLogin(username = ADMIN.username, password = ADMIN.password) {
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.url },
    body: JSON.stringify({ username, password }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('studio_session='))!;
  return { res, cookie, token: cookie.split(';')[0]!.split('=')[1]! };
}

async function getUser(token: string) {
  return fetch(`${server.url}/api/user`, { headers: { Cookie: `studio_session=${token}` } });
}

describe('staff sessions', () => {
  test('the cookie is HttpOnly, SameSite=Lax, Path=/, 30 days, not Secure over http', async () => {
    const { res, cookie } = await rawLogin();
    expect(res.status).toBe(200);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i);
    const expires = Date.parse(/Expires=([^;]+)/i.exec(cookie)![1]!);
    expect(expires - Date.now()).toBeGreaterThan(29 * DAY);
    expect(expires - Date.now()).toBeLessThanOrEqual(30 * DAY + 60_000);
  });

  test('each sign-in issues a new token and only its SHA-256 is stored', async () => {
    const a = await rawLogin();
    const b = await rawLogin();
    expect(a.token).not.toBe(b.token);
    expect(a.token.length).toBeGreaterThanOrEqual(32); // 25 bytes in base32
    const stored = await server.sql.execute({ sql: 'SELECT id FROM staff_sessions WHERE id IN (?, ?, ?)', args: [a.token, sha256(a.token), b.token] });
    expect(stored.rows.map((r) => r.id)).toEqual([sha256(a.token)]);
  });

  test('a session with under 15 days left is renewed to 30 days and the cookie re-sent', async () => {
    const { token } = await rawLogin();
    await server.sql.execute({ sql: 'UPDATE staff_sessions SET expires_at = ? WHERE id = ?', args: [Date.now() + 10 * DAY, sha256(token)] });
    const res = await getUser(token);
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().some((c) => c.startsWith(`studio_session=${token}`))).toBe(true);
    const row = await server.sql.execute({ sql: 'SELECT expires_at FROM staff_sessions WHERE id = ?', args: [sha256(token)] });
    expect(Number(row.rows[0]!.expires_at) - Date.now()).toBeGreaterThan(29 * DAY);
  });

  test('a session with more than 15 days left is not rewritten', async () => {
    const { token } = await rawLogin();
    const res = await getUser(token);
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  test('an expired session is refused and deleted', async () => {
    const { token } = await rawLogin();
    await server.sql.execute({ sql: 'UPDATE staff_sessions SET expires_at = ? WHERE id = ?', args: [Date.now() - 1000, sha256(token)] });
    expect((await getUser(token)).status).toBe(401);
    const row = await server.sql.execute({ sql: 'SELECT count(*) AS n FROM staff_sessions WHERE id = ?', args: [sha256(token)] });
    expect(Number(row.rows[0]!.n)).toBe(0);
  });

  test('a session older than the 90-day cap is refused even if not expired', async () => {
    const { token } = await rawLogin();
    await server.sql.execute({ sql: 'UPDATE staff_sessions SET created_at = ? WHERE id = ?', args: [Date.now() - 91 * DAY, sha256(token)] });
    expect((await getUser(token)).status).toBe(401);
  });

  test('logout deletes the session on the server: the old token no longer works', async () => {
    const { token } = await rawLogin();
    expect((await getUser(token)).status).toBe(200);
    const out = await fetch(`${server.url}/api/logout`, { method: 'POST', headers: { Cookie: `studio_session=${token}`, Origin: server.url } });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().join()).toMatch(/studio_session=;/);
    expect((await getUser(token)).status).toBe(401);
  });

  test.each(['/api/user', '/api/user/roles', '/api/user/permissions'])('%s answers 401 when signed out', async (path) => {
    const res = await new Session(server.url).json('GET', path);
    expect(res.status).toBe(401);
    expect(typeof res.body.message).toBe('string');
  });

  test('roles and permissions of the admin', async () => {
    const s = await staffSession(server.url, ADMIN.username, ADMIN.password);
    const roles = await s.json('GET', '/api/user/roles');
    expect(roles.body.map((r: { name: string }) => r.name)).toEqual(['Admin']);
    const perms = await s.json('GET', '/api/user/permissions');
    expect(perms.body.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['view:media', 'upload:media', 'edit:media', 'assign:client', 'view:clients', 'edit:clients', 'view:users', 'edit:users', 'edit:roles', 'edit:website', 'view:enquiries']),
    );
  });

  test('an inactive user cannot sign in (same message) and an existing session stops working', async () => {
    const hash = await hashPassword('inactive-pass-1');
    await server.sql.execute({
      sql: "INSERT INTO users (id, username, email, password_hash) VALUES ('u-inactive', 'sleepy', 'sleepy@studio.test', ?)",
      args: [hash],
    });
    const s = await staffSession(server.url, 'sleepy', 'inactive-pass-1');
    await server.sql.execute("UPDATE users SET is_active = 0 WHERE id = 'u-inactive'");
    expect((await s.json('GET', '/api/user')).status).toBe(401);
    const again = await new Session(server.url).json('POST', '/api/login', { username: 'sleepy', password: 'inactive-pass-1' });
    expect(again.status).toBe(401);
    expect(again.body.message).toBe('Invalid username or password');
  });
});

describe('client sessions', () => {
  beforeAll(async () => {
    const hash = await hashPassword('client-pass-1');
    await server.sql.execute("INSERT INTO clients (id, name, email) VALUES (501, 'Acme Films', 'acme@client.test')");
    await server.sql.execute({
      sql: "INSERT INTO client_users (client_id, username, email, password_hash) VALUES (501, 'acme', 'acme@client.test', ?)",
      args: [hash],
    });
  });

  test('client login answers { clientUser: { id, username } } and the profile', async () => {
    const s = new Session(server.url);
    const login = await s.json('POST', '/api/client/login', { username: 'acme', password: 'client-pass-1' });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ clientUser: { id: expect.any(Number), username: 'acme' } });
    // The session, and the device cookie that lets this browser past the account-wide sign-in bar.
    expect([...s.cookies.keys()].sort()).toEqual(['studio_client_session', 'studio_device_client']);
    const profile = await s.json('GET', '/api/client/profile');
    expect(profile.body).toEqual({ id: login.body.clientUser.id, username: 'acme', name: 'Acme Films', email: 'acme@client.test' });
    const last = await server.sql.execute("SELECT last_login_at FROM client_users WHERE username = 'acme'");
    expect(Number(last.rows[0]!.last_login_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  test('a client session is not a staff session and vice versa', async () => {
    const c = new Session(server.url);
    await c.post('/api/client/login', { username: 'acme', password: 'client-pass-1' });
    expect((await c.json('GET', '/api/user')).status).toBe(401);
    const staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
    expect((await staff.json('GET', '/api/client/profile')).status).toBe(401);
  });

  test('client logout ends the session server-side', async () => {
    const c = new Session(server.url);
    await c.post('/api/client/login', { username: 'acme', password: 'client-pass-1' });
    const token = c.cookies.get('studio_client_session')!;
    await c.post('/api/client/logout');
    const res = await fetch(`${server.url}/api/client/profile`, { headers: { Cookie: `studio_client_session=${token}` } });
    expect(res.status).toBe(401);
  });

  test('a client session older than the 90-day cap is refused and deleted even if not expired', async () => {
    const c = new Session(server.url);
    await c.post('/api/client/login', { username: 'acme', password: 'client-pass-1' });
    const token = c.cookies.get('studio_client_session')!;
    // Still 20 days before its sliding expiry: only the cap can end it.
    await server.sql.execute({
      sql: 'UPDATE client_sessions SET created_at = ?, expires_at = ? WHERE id = ?',
      args: [Date.now() - 91 * DAY, Date.now() + 20 * DAY, sha256(token)],
    });
    expect((await c.json('GET', '/api/client/profile')).status).toBe(401);
    const row = await server.sql.execute({ sql: 'SELECT count(*) AS n FROM client_sessions WHERE id = ?', args: [sha256(token)] });
    expect(Number(row.rows[0]!.n)).toBe(0);
  });

  test('renewing a client session never takes it past the 90-day cap', async () => {
    const c = new Session(server.url);
    await c.post('/api/client/login', { username: 'acme', password: 'client-pass-1' });
    const token = c.cookies.get('studio_client_session')!;
    const createdAt = Date.now() - 85 * DAY;
    await server.sql.execute({ sql: 'UPDATE client_sessions SET created_at = ?, expires_at = ? WHERE id = ?', args: [createdAt, Date.now() + 2 * DAY, sha256(token)] });
    expect((await c.json('GET', '/api/client/profile')).status).toBe(200);
    const row = await server.sql.execute({ sql: 'SELECT expires_at FROM client_sessions WHERE id = ?', args: [sha256(token)] });
    // Renewed (under 15 days were left), but to the cap, not 30 days on.
    expect(Number(row.rows[0]!.expires_at)).toBe(createdAt + 90 * DAY);
  });

  test('wrong client password gets the generic message', async () => {
    const res = await new Session(server.url).json('POST', '/api/client/login', { username: 'acme', password: 'nope' });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid username or password');
  });
});
