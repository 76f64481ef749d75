// Issue 19 #10: a logout that errors still clears the cookie, and the session is gone
// server-side whenever the request reached the server.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, ADMIN, DEMO_CLIENT, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { DEMO_CONTENT: 'true' } });
});
afterAll(() => server?.stop());

const KINDS = [
  { kind: 'staff', login: '/api/login', logout: '/api/logout', cookie: 'studio_session', probe: '/api/user', user: ADMIN },
  { kind: 'client', login: '/api/client/login', logout: '/api/client/logout', cookie: 'studio_client_session', probe: '/api/client/profile', user: DEMO_CLIENT },
] as const;

async function signIn(k: (typeof KINDS)[number]): Promise<string> {
  const res = await fetch(`${server.url}${k.login}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.url },
    body: JSON.stringify({ username: k.user.username, password: k.user.password }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${k.cookie}=`))!;
  return cookie.split(';')[0]!.split('=')[1]!;
}

function clears(res: Response, name: string): boolean {
  return res.headers.getSetCookie().some((c) => c.startsWith(`${name}=;`) && /Max-Age=0/i.test(c));
}

const probe = (k: (typeof KINDS)[number], token: string) => fetch(`${server.url}${k.probe}`, { headers: { Cookie: `${k.cookie}=${token}` } });

describe.each(KINDS)('$kind logout', (k) => {
  test('a successful logout clears the cookie and deletes the session', async () => {
    const token = await signIn(k);
    const res = await fetch(`${server.url}${k.logout}`, { method: 'POST', headers: { Origin: server.url, Cookie: `${k.cookie}=${token}` } });
    expect(res.status).toBe(200);
    expect(clears(res, k.cookie)).toBe(true);
    expect((await probe(k, token)).status).toBe(401);
  });

  test('a refused logout (cross-site) still clears the cookie', async () => {
    const token = await signIn(k);
    const res = await fetch(`${server.url}${k.logout}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example', Cookie: `${k.cookie}=${token}` } });
    expect(res.status).toBe(403);
    expect(clears(res, k.cookie)).toBe(true);
  });
});
