// Odd methods and origins (issue 19, item 8): unknown methods answer a JSON 405 with the
// security headers, a wrong method on an API route a JSON 405 with Allow, and a write with no
// Origin but a cross-site Referer is refused.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { Session, staffSession } from '../helpers/http.ts';
import { SECURITY_HEADERS } from '../../src/server/security-headers.ts';

let server: TestServer;
let admin: Session;
beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
});
afterAll(() => server?.stop());

/** Raw request (fetch refuses TRACE and friends). */
function raw(method: string, path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${path}`, { method, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('unknown methods', () => {
  test.each([
    ['TRACE', '/'],
    ['TRACE', '/api/login'],
    ['TRACK', '/'],
    ['PROPFIND', '/admin/dashboard'],
    ['BREW', '/api/media'],
  ])('%s %s → 405 JSON with the security headers', async (method, path) => {
    const res = await raw(method, path);
    expect(res.status).toBe(405);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.body).message).toMatch(/not allowed/);
    expect(res.headers.allow).toContain('GET');
    for (const [name, value] of SECURITY_HEADERS) expect(res.headers[name.toLowerCase()], name).toBe(value);
    expect(res.headers['content-security-policy']).toBeTruthy();
  });
});

describe('a wrong method on an API route', () => {
  test.each([
    ['GET', '/api/login', 'POST'],
    ['PUT', '/api/stats', 'GET, HEAD'],
    ['DELETE', '/api/users', 'GET, HEAD, POST'],
    ['PATCH', '/api/roles/1/permissions/1', 'POST, DELETE'],
    ['POST', '/api/users/00000000-0000-4000-8000-000000000000/roles', 'PUT'],
  ])('%s %s → 405 JSON { message } with Allow: %s', async (method, path, allow) => {
    const res = await admin.request(method, path, method === 'GET' ? undefined : {});
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('allow')).toBe(allow);
    expect((await res.json()).message).toMatch(new RegExp(`${method} is not allowed`));
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  test('an unknown API path is still a JSON 404, and a right method still works', async () => {
    const missing = await admin.request('GET', '/api/no-such-thing');
    expect(missing.status).toBe(404);
    expect((await missing.json()).message).toMatch(/no such api/i);
    expect((await admin.request('GET', '/api/stats')).status).toBe(200);
  });
});

describe('writes without an Origin are judged by their Referer', () => {
  const login = (headers: Record<string, string>) =>
    fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
    });

  test.each([
    ['a cross-site Referer', { Referer: 'https://evil.example/page' }],
    ['a Referer on another port of the same host', { Referer: 'http://127.0.0.1:1/x' }],
    ['an unreadable Referer', { Referer: 'not a url' }],
  ])('%s → 403, no session', async (_label, headers) => {
    const res = await login(headers);
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  test.each([
    ['a same-site Referer', () => ({ Referer: `${server.url}/auth` })],
    ['neither Origin nor Referer (a script or API client)', () => ({})],
  ])('%s → accepted', async (_label, headers) => {
    expect((await login(headers())).status).toBe(200);
  });
});
