import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { adminSession, createClientAccount } from '../helpers/accounts.ts';
import { Session } from '../helpers/http.ts';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server?.stop());

/**
 * Posts a sign-in from a chosen loopback address (all of 127.0.0.0/8 reaches the server), so
 * tests can play several client addresses without trusting any forwarding header.
 */
function signIn(path: string, username: string, password: string, from = '127.0.0.1'): Promise<{ status: number; body: any }> {
  return new Session(server.url, from).json('POST', path, { username, password });
}
const staff = (username: string, password: string, from?: string) => signIn('/api/login', username, password, from);

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

test('five failures for one account from one address answer 429 until the window passes, even with the right password', async () => {
  for (let i = 0; i < 5; i++) expect((await staff(ADMIN.username, `wrong-${i}`)).status).toBe(401);
  const blocked = await staff(ADMIN.username, ADMIN.password);
  expect(blocked.status).toBe(429);
  expect(blocked.body.message).toMatch(/too many/i);
  // Move the recorded attempts out of every window.
  await server.sql.execute({ sql: 'UPDATE login_attempts SET attempted_at = ?', args: [Date.now() - 61 * 60_000] });
  expect((await staff(ADMIN.username, ADMIN.password)).status).toBe(200);
});

describe('parallel guesses cannot outrun the throttle (the attempt is counted before the password is checked)', () => {
  test('staff: of 50 parallel wrong tries at most 5 are verified (401), the rest answer 429', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => staff(ADMIN.username, `wrong-${i}`)));
    const t = tally(answers.map((a) => a.status));
    expect(t[401] ?? 0).toBeLessThanOrEqual(5);
    expect((t[401] ?? 0) + (t[429] ?? 0)).toBe(50);
    expect((await staff(ADMIN.username, ADMIN.password)).status).toBe(429);
  });

  test('client: of 50 parallel wrong tries at most 5 are verified (401), the rest answer 429', async () => {
    const c = await createClientAccount(await adminSession(server.url));
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => signIn('/api/client/login', c.username, `wrong-${i}`)));
    const t = tally(answers.map((a) => a.status));
    expect(t[401] ?? 0).toBeLessThanOrEqual(5);
    expect((t[401] ?? 0) + (t[429] ?? 0)).toBe(50);
    expect((await signIn('/api/client/login', c.username, c.password)).status).toBe(429);
  });
});

test('an address that locked an account does not lock the real user out from another address', async () => {
  for (let i = 0; i < 5; i++) expect((await staff(ADMIN.username, `wrong-${i}`, '127.0.0.2')).status).toBe(401);
  expect((await staff(ADMIN.username, ADMIN.password, '127.0.0.2')).status).toBe(429);
  expect((await staff(ADMIN.username, ADMIN.password, '127.0.0.3')).status).toBe(200);
});

test('the username and the email of one account share one count, which is not the whole address\'s count', async () => {
  for (let i = 0; i < 3; i++) expect((await staff(ADMIN.username, `wrong-${i}`)).status).toBe(401);
  for (let i = 0; i < 2; i++) expect((await staff(ADMIN.email.toUpperCase(), `wrong-${i}`)).status).toBe(401);
  expect((await staff(ADMIN.username, ADMIN.password)).status).toBe(429);
  expect((await staff(ADMIN.email, ADMIN.password)).status).toBe(429);
  // Five failures do not close the address to other accounts (a shared office keeps working).
  expect((await staff('colleague', 'typo')).status).toBe(401);
});

test('the account across all addresses stops at 50 failures an hour', async () => {
  // 10 addresses x 5 wrong passwords: no pair is over its limit, the account is.
  const addresses = Array.from({ length: 10 }, (_, i) => `127.0.1.${i + 1}`);
  const answers = await Promise.all(
    addresses.map(async (from) => {
      const s: number[] = [];
      for (let i = 0; i < 5; i++) s.push((await staff(ADMIN.username, `wrong-${i}`, from)).status);
      return s;
    }),
  );
  expect(answers.flat().every((s) => s === 401)).toBe(true);
  const fresh = await staff(ADMIN.username, ADMIN.password, '127.0.2.1');
  expect(fresh.status).toBe(429);
  // The account bar is an hour long: 20 minutes later it still holds, after 61 it is gone.
  await server.sql.execute({ sql: 'UPDATE login_attempts SET attempted_at = ?', args: [Date.now() - 20 * 60_000] });
  expect((await staff(ADMIN.username, ADMIN.password, '127.0.2.1')).status).toBe(429);
  await server.sql.execute({ sql: 'UPDATE login_attempts SET attempted_at = ?', args: [Date.now() - 61 * 60_000] });
  expect((await staff(ADMIN.username, ADMIN.password, '127.0.2.1')).status).toBe(200);
});

test('unknown usernames are throttled like real ones, and one address spraying many names is stopped', async () => {
  for (let i = 0; i < 5; i++) expect((await staff('nobody', `x-${i}`, '127.0.0.4')).status).toBe(401);
  expect((await staff('nobody', 'x', '127.0.0.4')).status).toBe(429);
  // 20 failures in all from one address block it for every account, the real one included...
  for (let i = 0; i < 15; i++) expect((await staff(`nobody-${i}`, 'x', '127.0.0.4')).status).toBe(401);
  expect((await staff(ADMIN.username, ADMIN.password, '127.0.0.4')).status).toBe(429);
  // ...but not for anyone else.
  expect((await staff(ADMIN.username, ADMIN.password, '127.0.0.5')).status).toBe(200);
});

test('client sign-in is throttled the same way', async () => {
  for (let i = 0; i < 5; i++) expect((await signIn('/api/client/login', 'someone', 'x')).status).toBe(401);
  expect((await signIn('/api/client/login', 'someone', 'x')).status).toBe(429);
});

// Issue 31: 11 addresses x 5 wrong tries filled the account-wide bar and locked the owner out
// for an hour. A device the account signed in from before (its HttpOnly device cookie) is
// counted on its own instead.
describe('a device that signed in before', () => {
  const devices = (kind: 'staff' | 'client') => `studio_device_${kind}`;

  test('gets through the account-wide bar that failures from other addresses filled; a new device does not', async () => {
    const laptop = new Session(server.url, '127.0.4.1');
    expect((await laptop.post('/api/login', { username: ADMIN.username, password: ADMIN.password })).status).toBe(200);
    expect(laptop.cookies.get(devices('staff'))).toMatch(/^[a-z2-7]{40}$/);
    // Only its hash is stored.
    const stored = await server.sql.execute('SELECT id, account FROM trusted_devices');
    expect(JSON.stringify(stored.rows)).not.toContain(laptop.cookies.get(devices('staff'))!);
    laptop.cookies.delete('studio_session');

    const guessers = Array.from({ length: 11 }, (_, i) => `127.0.5.${i + 1}`);
    await Promise.all(guessers.map(async (from) => {
      for (let i = 0; i < 5; i++) await staff(ADMIN.username, `wrong-${i}`, from);
    }));
    // A browser the account never signed in from is held by the account bar...
    expect((await staff(ADMIN.username, ADMIN.password, '127.0.6.1')).status).toBe(429);
    // ...the owner's laptop is not, from a new address too (the cookie travels with it).
    const moved = new Session(server.url, '127.0.6.2');
    moved.cookies.set(devices('staff'), laptop.cookies.get(devices('staff'))!);
    expect((await moved.post('/api/login', { username: ADMIN.username, password: ADMIN.password })).status).toBe(200);
    expect((await laptop.post('/api/login', { username: ADMIN.username, password: ADMIN.password })).status).toBe(200);
  });

  test('has its own limit of 5 failures, and a cookie given to another account counts for nothing', async () => {
    const admin = await adminSession(server.url);
    const c = await createClientAccount(admin);
    // The client's device cookie, presented for the staff account.
    const portal = new Session(server.url, '127.0.7.1');
    expect((await portal.post('/api/client/login', { username: c.username, password: c.password })).status).toBe(200);
    const stolen = new Session(server.url, '127.0.7.2');
    stolen.cookies.set(devices('staff'), portal.cookies.get(devices('client'))!);
    await Promise.all(Array.from({ length: 11 }, (_, i) => `127.0.8.${i + 1}`).map(async (from) => {
      for (let i = 0; i < 5; i++) await staff(ADMIN.username, `wrong-${i}`, from);
    }));
    expect((await stolen.post('/api/login', { username: ADMIN.username, password: ADMIN.password })).status).toBe(429);

    // A trusted staff device that guesses wrong 5 times is stopped like any other pair.
    await server.sql.execute('DELETE FROM login_attempts');
    const laptop = new Session(server.url, '127.0.9.1');
    expect((await laptop.post('/api/login', { username: ADMIN.username, password: ADMIN.password })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await laptop.post('/api/login', { username: ADMIN.username, password: `wrong-${i}` })).status).toBe(401);
    expect((await laptop.post('/api/login', { username: ADMIN.username, password: ADMIN.password })).status).toBe(429);
  });
});
