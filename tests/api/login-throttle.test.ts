import { afterEach, beforeEach, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { Session } from '../helpers/http.ts';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server?.stop());

const attempt = (username: string, password: string) => new Session(server.url).json('POST', '/api/login', { username, password });

test('five failures for one username answer 429 until the window passes, even with the right password', async () => {
  for (let i = 0; i < 5; i++) expect((await attempt(ADMIN.username, `wrong-${i}`)).status).toBe(401);
  const blocked = await attempt(ADMIN.username, ADMIN.password);
  expect(blocked.status).toBe(429);
  expect(blocked.body.message).toMatch(/too many/i);
  // Move the recorded failures out of the 15-minute window.
  await server.sql.execute({ sql: 'UPDATE login_attempts SET attempted_at = ?', args: [Date.now() - 16 * 60_000] });
  expect((await attempt(ADMIN.username, ADMIN.password)).status).toBe(200);
});

test('five failures from one address block that address for other usernames too', async () => {
  for (let i = 0; i < 5; i++) expect((await attempt(`nobody-${i}`, 'x')).status).toBe(401);
  expect((await attempt(ADMIN.username, ADMIN.password)).status).toBe(429);
});

test('client sign-in is throttled the same way', async () => {
  for (let i = 0; i < 5; i++) {
    const r = await new Session(server.url).json('POST', '/api/client/login', { username: 'someone', password: 'x' });
    expect(r.status).toBe(401);
  }
  const r = await new Session(server.url).json('POST', '/api/client/login', { username: 'someone', password: 'x' });
  expect(r.status).toBe(429);
});
