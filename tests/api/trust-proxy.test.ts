// TRUST_PROXY (issue 19, item 6): behind a TLS proxy the scheme and client address come from
// the proxy's own hop of X-Forwarded-Proto / X-Forwarded-For; off (the default) they are ignored.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';

const post = (server: TestServer, path: string, body: unknown, headers: Record<string, string>) =>
  fetch(server.url + path, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: server.url, ...headers }, body: JSON.stringify(body) });
const wrong = (server: TestServer, headers: Record<string, string>) => post(server, '/api/login', { username: ADMIN.username, password: 'wrong-password' }, headers);
const right = (server: TestServer, headers: Record<string, string>) => post(server, '/api/login', { username: ADMIN.username, password: ADMIN.password }, headers);
const sessionCookie = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('studio_session='));

describe('TRUST_PROXY=true', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => server?.stop());

  test('https at the proxy: the session cookie is Secure and HSTS is sent', async () => {
    const res = await right(server, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '10.1.0.1' });
    expect(res.status).toBe(200);
    expect(sessionCookie(res)).toMatch(/;\s*Secure/i);
    expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=\d{7,}/);
  });

  test.each([
    ['plain http', { 'X-Forwarded-Proto': 'http', 'X-Forwarded-For': '10.1.0.2' }],
    ['a forged https left of the proxy\'s http', { 'X-Forwarded-Proto': 'https, http', 'X-Forwarded-For': '10.1.0.3' }],
  ])('%s: no Secure, no HSTS', async (_label, headers) => {
    const res = await right(server, headers);
    expect(res.status).toBe(200);
    expect(sessionCookie(res)).not.toMatch(/Secure/i);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  test('public pages over https carry HSTS, from the page cache too', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${server.url}/about`, { headers: { 'X-Forwarded-Proto': 'https' } });
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      expect(res.headers.get('strict-transport-security'), `request ${i + 1}`).toMatch(/^max-age=/);
    }
    const plain = await fetch(`${server.url}/about`);
    await plain.arrayBuffer();
    expect(plain.headers.get('strict-transport-security')).toBeNull();
  });

  test('the browser\'s https origin counts as same-site', async () => {
    const res = await post(server, '/api/login', { username: ADMIN.username, password: ADMIN.password }, {
      Origin: server.url.replace('http:', 'https:'),
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-For': '10.1.0.4',
    });
    expect(res.status).toBe(200);
  });

  test('the throttle counts the proxy\'s last hop, whatever the client puts left of it', async () => {
    for (let i = 0; i < 5; i++) expect((await wrong(server, { 'X-Forwarded-For': `203.0.113.${i}, 10.2.0.1` })).status).toBe(401);
    expect((await right(server, { 'X-Forwarded-For': '198.51.100.9, 10.2.0.1' })).status).toBe(429);
    // Another client address (as the proxy saw it) is not locked out.
    expect((await right(server, { 'X-Forwarded-For': '10.2.0.2' })).status).toBe(200);
  });
});

describe('TRUST_PROXY off (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.stop());

  test('forwarded headers are ignored: no Secure, no HSTS', async () => {
    const res = await right(server, { 'X-Forwarded-Proto': 'https' });
    expect(res.status).toBe(200);
    expect(sessionCookie(res)).not.toMatch(/Secure/i);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  test('a made-up X-Forwarded-For does not give an attacker fresh addresses', async () => {
    for (let i = 0; i < 5; i++) expect((await wrong(server, { 'X-Forwarded-For': `10.3.0.${i}` })).status).toBe(401);
    expect((await right(server, { 'X-Forwarded-For': '10.3.0.99' })).status).toBe(429);
  });
});

test('an invalid TRUST_PROXY stops the server with a message naming it', async () => {
  // A server that starts anyway is stopped, so a failing run leaves no process behind.
  const started = startServer({ env: { TRUST_PROXY: 'sometimes' } }).then(async (s) => {
    await s.stop();
    return 'started';
  });
  await expect(started).rejects.toThrow(/TRUST_PROXY/);
});
