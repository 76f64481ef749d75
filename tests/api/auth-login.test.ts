import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { Session } from '../helpers/http.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

describe('POST /api/login', () => {
  test.each([
    ['username', ADMIN.username],
    ['email', ADMIN.email],
    ['upper-case username', ADMIN.username.toUpperCase()],
  ])('signs in by %s', async (_label, login) => {
    const s = new Session(server.url);
    const res = await s.json('POST', '/api/login', { username: login, password: ADMIN.password });
    expect(res.status).toBe(200);
    expect(res.body.username).toBe(ADMIN.username);
    expect(res.body).not.toHaveProperty('passwordHash');
    const me = await s.json('GET', '/api/user');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(ADMIN.email);
  });

  test('wrong password and unknown user get the same 401 message', async () => {
    const wrong = await new Session(server.url).json('POST', '/api/login', { username: ADMIN.username, password: 'nope-nope' });
    const unknown = await new Session(server.url).json('POST', '/api/login', { username: 'ghost', password: 'nope-nope' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe(unknown.body.message);
    expect(wrong.body.message).toMatch(/invalid/i);
  });

  test.each([
    [{}, 'username'],
    [{ username: 'admin' }, 'password'],
    [{ username: '', password: 'x' }, 'username'],
    [{ username: 'admin', password: 42 }, 'password'],
  ])('rejects %j naming the field %s', async (body, field) => {
    const res = await new Session(server.url).json('POST', '/api/login', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  test('malformed JSON answers 400 with a message', async () => {
    const res = await new Session(server.url).request('POST', '/api/login', '{"username":', { 'Content-Type': 'application/json' });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/malformed json/i);
  });
});
