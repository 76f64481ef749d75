import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { clientSession, Session } from '../helpers/http.ts';
import { ACTORS, REFUSAL, adminSession, createClientAccount, expectStatus, matrixSessions, unique, type Actor } from '../helpers/accounts.ts';

let server: TestServer;
let admin: Session;
const sessions: Record<string, Record<Actor, Session>> = {};

beforeAll(async () => {
  server = await startServer();
  admin = await adminSession(server.url);
  sessions['view:clients'] = await matrixSessions(server.url, 'view:clients');
  sessions['edit:clients'] = await matrixSessions(server.url, 'edit:clients');
});
afterAll(() => server?.stop());

const newClient = (extra: Record<string, unknown> = {}) => {
  const username = unique('cl');
  return { name: 'Northern Lights', email: `${username}@clients.test`, phone: '0116 123', company: 'NL Ltd', notes: 'VIP', username, password: 'portal-123', ...extra };
};
const details = (c: any, extra: Record<string, unknown> = {}) => ({ name: c.name, email: c.email, phone: c.phone, company: c.company, notes: c.notes, ...extra });
const count = async (table: string, where = '1', args: any[] = []) =>
  Number((await server.sql.execute({ sql: `select count(*) as n from ${table} where ${where}`, args })).rows[0]!.n);

const ENDPOINTS: [string, string, string, number, () => Promise<{ path: string; body?: unknown }>][] = [
  ['GET', '/api/clients', 'view:clients', 200, async () => ({ path: '/api/clients' })],
  ['POST', '/api/clients', 'edit:clients', 201, async () => ({ path: '/api/clients', body: newClient() })],
  ['PUT', '/api/clients/{id}', 'edit:clients', 200, async () => {
    const { client } = await createClientAccount(admin);
    return { path: `/api/clients/${client.id}`, body: details(client, { notes: 'changed' }) };
  }],
  ['PUT', '/api/clients/{id}/reset-password', 'edit:clients', 200, async () => {
    const { client } = await createClientAccount(admin);
    return { path: `/api/clients/${client.id}/reset-password`, body: { password: 'fresh-pass-1' } };
  }],
  ['DELETE', '/api/clients/{id}', 'edit:clients', 200, async () => ({ path: `/api/clients/${(await createClientAccount(admin)).client.id}` })],
];

describe('permission matrix', () => {
  const cases = ENDPOINTS.flatMap(([method, label, perm, okStatus, prepare]) =>
    ACTORS.map((actor) => [method, label, actor, REFUSAL[actor] ?? okStatus, perm, prepare] as const),
  );
  test.each(cases)('%s %s as %s → %i', async (method, _label, actor, expected, perm, prepare) => {
    const { path, body } = await prepare();
    const res = await sessions[perm]![actor].json(method, path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(expected);
    if (expected === 403) expect(res.body.message).toContain(perm);
  });
});

describe('POST /api/clients', () => {
  test('creates the client and its portal login together; the list shows the login name', async () => {
    const body = newClient();
    const res = await admin.json('POST', '/api/clients', body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: body.name, email: body.email, company: 'NL Ltd', phone: '0116 123', notes: 'VIP', username: body.username, isActive: true });
    expect(res.body.createdBy).toBeTruthy();
    const list = await admin.json('GET', '/api/clients');
    expect(list.body.find((c: any) => c.id === res.body.id).username).toBe(body.username);
    expect(JSON.stringify(list.body)).not.toMatch(/password|argon2/i);
    const portal = await clientSession(server.url, body.username, body.password);
    expect((await portal.json('GET', '/api/client/profile')).body).toMatchObject({ username: body.username, name: body.name });
  });

  test('phone, company and notes default to empty', async () => {
    const { phone: _p, company: _c, notes: _n, ...rest } = newClient();
    const res = await admin.json('POST', '/api/clients', rest);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ phone: '', company: '', notes: '' });
  });

  test.each([
    ['name', { name: '' }],
    ['email', { email: 'not-mail' }],
    ['username', { username: undefined }],
    ['password', { password: '123' }],
    ['notes', { notes: 42 }],
  ])('rejects a bad %s with 400 naming it', async (field, extra) => {
    const before = await count('clients');
    const res = await admin.json('POST', '/api/clients', newClient(extra));
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
    expect(await count('clients')).toBe(before);
  });

  test.each([
    ['login username', (c: any) => ({ username: c.username.toUpperCase() }), /username .* already taken/],
    ['email', (c: any) => ({ email: c.email.toUpperCase() }), /email .* already used/],
  ])('a duplicate %s → 409 and nothing is created', async (_l, clash, message) => {
    const first = newClient();
    await expectStatus(admin.json('POST', '/api/clients', first), 201);
    const before = [await count('clients'), await count('client_users')];
    const res = await admin.json('POST', '/api/clients', newClient(clash(first)));
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(message);
    expect([await count('clients'), await count('client_users')]).toEqual(before);
  });
});

describe('PUT /api/clients/{id}', () => {
  test('updates the details; the login follows the new email', async () => {
    const c = await createClientAccount(admin);
    const email = `${unique('moved')}@clients.test`;
    const res = await admin.json('PUT', `/api/clients/${c.client.id}`, details(c.client, { name: 'Renamed Co', email, company: '' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed Co', email, company: '', username: c.username });
    await clientSession(server.url, email, c.password);
  });

  test("taking another client's email → 409", async () => {
    const a = await createClientAccount(admin);
    const b = await createClientAccount(admin);
    const res = await admin.json('PUT', `/api/clients/${b.client.id}`, details(b.client, { email: a.client.email }));
    expect(res.status).toBe(409);
  });

  test.each([
    ['PUT', '/api/clients/abc', details(newClient())],
    ['PUT', '/api/clients/999999', details(newClient())],
    ['PUT', '/api/clients/0/reset-password', { password: 'whatever-pass-1' }],
    ['PUT', '/api/clients/999999/reset-password', { password: 'whatever-pass-1' }],
    ['DELETE', '/api/clients/1.5', undefined],
    ['DELETE', '/api/clients/999999', undefined],
  ])('%s %s → 404', async (method, path, body) => {
    const res = await admin.json(method, path, body);
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/not found/i);
  });
});

describe('PUT /api/clients/{id}/reset-password', () => {
  test('ends the client’s sessions; the old password is refused and the new one works', async () => {
    const c = await createClientAccount(admin);
    const portal = await clientSession(server.url, c.username, c.password);
    expect((await portal.json('GET', '/api/client/profile')).status).toBe(200);
    expect((await admin.json('PUT', `/api/clients/${c.client.id}/reset-password`, { password: 'new-portal-pass' })).status).toBe(200);
    expect((await portal.json('GET', '/api/client/profile')).status).toBe(401);
    expect((await new Session(server.url).json('POST', '/api/client/login', { username: c.username, password: c.password })).status).toBe(401);
    await clientSession(server.url, c.username, 'new-portal-pass');
  });

  test.each([[{}], [{ password: '12345' }], [{ password: 123456 }]])('rejects %j naming password', async (body) => {
    const c = await createClientAccount(admin);
    const res = await admin.json('PUT', `/api/clients/${c.client.id}/reset-password`, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('password');
  });
});

describe('DELETE /api/clients/{id}', () => {
  test('removes the login, its sessions and media assignments', async () => {
    const c = await createClientAccount(admin);
    const portal = await clientSession(server.url, c.username, c.password);
    const media = await server.sql.execute({
      sql: `insert into media (title, type, storage_key, url, filename, file_size, mime_type) values ('Film', 'video', ?, '/media/x/original', 'x.mp4', 10, 'video/mp4') returning id`,
      args: [unique('key')],
    });
    const mediaId = Number(media.rows[0]!.id);
    await server.sql.execute({ sql: 'insert into media_clients (media_id, client_id) values (?, ?)', args: [mediaId, c.client.id] });
    expect(await count('client_sessions cs join client_users cu on cu.id = cs.client_user_id', 'cu.client_id = ?', [c.client.id])).toBe(1);

    expect((await admin.json('DELETE', `/api/clients/${c.client.id}`)).status).toBe(200);
    expect(await count('clients', 'id = ?', [c.client.id])).toBe(0);
    expect(await count('client_users', 'client_id = ?', [c.client.id])).toBe(0);
    expect(await count('media_clients', 'client_id = ?', [c.client.id])).toBe(0);
    expect(await count('media', 'id = ?', [mediaId])).toBe(1);
    expect((await portal.json('GET', '/api/client/profile')).status).toBe(401);
    expect((await new Session(server.url).json('POST', '/api/client/login', { username: c.username, password: c.password })).status).toBe(401);
  });
});
