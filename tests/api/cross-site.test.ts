import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

const EVIL = 'https://evil.example';

test.each([
  ['JSON post', 'application/json', JSON.stringify({ username: ADMIN.username, password: ADMIN.password })],
  ['form post', 'application/x-www-form-urlencoded', `username=${ADMIN.username}&password=${ADMIN.password}`],
  ['multipart post', 'multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n`],
])('a cross-site %s is refused with 403 and sets no session', async (_label, type, body) => {
  const res = await fetch(`${server.url}/api/login`, { method: 'POST', headers: { 'Content-Type': type, Origin: EVIL }, body });
  expect(res.status).toBe(403);
  expect(res.headers.getSetCookie()).toEqual([]);
});

test.each(['PUT', 'PATCH', 'DELETE'])('a cross-site %s is refused', async (method) => {
  const res = await fetch(`${server.url}/api/media/1`, { method, headers: { 'Content-Type': 'application/json', Origin: EVIL }, body: '{}' });
  expect(res.status).toBe(403);
});

test('Sec-Fetch-Site: cross-site is refused even without Origin', async () => {
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'cross-site' },
    body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
  });
  expect(res.status).toBe(403);
});

test('a same-origin JSON post is accepted', async () => {
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.url },
    body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
  });
  expect(res.status).toBe(200);
});

test('unknown API paths answer JSON 404', async () => {
  const res = await fetch(`${server.url}/api/does-not-exist`);
  expect(res.status).toBe(404);
  expect((await res.json()).message).toMatch(/no such api/i);
});
