import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { Session, staffSession } from '../helpers/http.ts';
import { ACTORS, REFUSAL, adminSession, createStaff, expectStatus, matrixSessions, unique, type Actor } from '../helpers/accounts.ts';

let server: TestServer;
let admin: Session;
let staff: Record<Actor, Session>;

beforeAll(async () => {
  server = await startServer();
  admin = await adminSession(server.url);
  staff = await matrixSessions(server.url, 'edit:roles');
});
afterAll(() => server?.stop());

// Permission names allow only letters and dashes, so digits of the unique suffix become letters.
const alpha = () => unique('').replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!);
const roles = async () => (await expectStatus(admin.json('GET', '/api/roles'))) as any[];
const roleNamed = async (name: string) => (await roles()).find((r) => r.name === name)!;
const permissionNamed = async (name: string) => ((await expectStatus(admin.json('GET', '/api/permissions'))) as any[]).find((p) => p.name === name)!;
const newRole = async () => expectStatus(admin.json('POST', '/api/roles', { name: unique('Role '), description: 'temp' }), 201);
const newPermission = async () => expectStatus(admin.json('POST', '/api/permissions', { name: `test:${alpha()}`, description: 'temp' }), 201);

const ENDPOINTS: [string, string, number, () => Promise<{ path: string; body?: unknown }>][] = [
  ['GET', '/api/roles', 200, async () => ({ path: '/api/roles' })],
  ['POST', '/api/roles', 201, async () => ({ path: '/api/roles', body: { name: unique('Editors '), description: 'Edits' } })],
  ['PUT', '/api/roles/{id}', 200, async () => ({ path: `/api/roles/${(await newRole()).id}`, body: { name: unique('Renamed '), description: 'x' } })],
  ['DELETE', '/api/roles/{id}', 200, async () => ({ path: `/api/roles/${(await newRole()).id}` })],
  ['GET', '/api/permissions', 200, async () => ({ path: '/api/permissions' })],
  ['POST', '/api/permissions', 201, async () => ({ path: '/api/permissions', body: { name: `export:${alpha()}`, description: 'x' } })],
  // A permission the 'staff with it' actor holds: nobody may give one they lack (see below).
  ['POST', '/api/roles/{roleId}/permissions/{permissionId}', 200, async () => ({ path: `/api/roles/${(await newRole()).id}/permissions/${(await permissionNamed('edit:roles')).id}` })],
  ['DELETE', '/api/roles/{roleId}/permissions/{permissionId}', 200, async () => {
    const role = await newRole();
    const perm = await newPermission();
    await expectStatus(admin.json('POST', `/api/roles/${role.id}/permissions/${perm.id}`));
    return { path: `/api/roles/${role.id}/permissions/${perm.id}` };
  }],
];

describe('permission matrix (edit:roles)', () => {
  const cases = ENDPOINTS.flatMap(([method, label, okStatus, prepare]) => ACTORS.map((actor) => [method, label, actor, REFUSAL[actor] ?? okStatus, prepare] as const));
  test.each(cases)('%s %s as %s → %i', async (method, _label, actor, expected, prepare) => {
    const { path, body } = await prepare();
    const res = await staff[actor].json(method, path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(expected);
    if (expected === 403) expect(res.body.message).toContain('edit:roles');
  });

  test('user editors may read roles (for the Edit User checkboxes) but not change them', async () => {
    const s = await createStaff(admin, ['edit:users']);
    const editor = await staffSession(server.url, s.username, s.password);
    expect((await editor.json('GET', '/api/roles')).status).toBe(200);
    expect((await editor.json('POST', '/api/roles', { name: unique('Nope '), description: '' })).status).toBe(403);
    expect((await editor.json('GET', '/api/permissions')).status).toBe(403);
  });
});

describe('roles and permissions', () => {
  test('GET /api/roles lists roles with their permissions', async () => {
    const list = await roles();
    expect(list.map((r) => r.name)).toEqual(expect.arrayContaining(['Admin', 'Staff', 'Client']));
    const adminRole = list.find((r) => r.name === 'Admin');
    expect(adminRole.permissions.length).toBeGreaterThanOrEqual(10);
    expect(Object.keys(adminRole.permissions[0]).sort()).toEqual(['description', 'id', 'name']);
    expect(list.find((r) => r.name === 'Client')).toMatchObject({ isProtected: true, permissions: [] });
  });

  test('assigning a permission to a role grants it to its holders at once; removing takes it away', async () => {
    const s = await createStaff(admin, []);
    const member = await staffSession(server.url, s.username, s.password);
    const perm = await permissionNamed('view:users');
    expect((await member.json('GET', '/api/users')).status).toBe(403);
    const assigned = await admin.json('POST', `/api/roles/${s.role.id}/permissions/${perm.id}`);
    expect(assigned.body.permissions.map((p: any) => p.name)).toEqual(['view:users']);
    expect((await admin.json('POST', `/api/roles/${s.role.id}/permissions/${perm.id}`)).status).toBe(200);
    expect((await member.json('GET', '/api/users')).status).toBe(200);
    const removed = await admin.json('DELETE', `/api/roles/${s.role.id}/permissions/${perm.id}`);
    expect(removed.body.permissions).toEqual([]);
    expect((await member.json('GET', '/api/users')).status).toBe(403);
  });

  test('editing and deleting a role', async () => {
    const role = await newRole();
    const edited = await admin.json('PUT', `/api/roles/${role.id}`, { name: 'Producers', description: 'Run shoots' });
    expect(edited.body).toMatchObject({ name: 'Producers', description: 'Run shoots' });
    expect((await admin.json('DELETE', `/api/roles/${role.id}`)).status).toBe(200);
    expect((await roles()).some((r) => r.id === role.id)).toBe(false);
  });

  test.each([
    ['POST', '/api/roles', { name: 'ADMIN', description: '' }, /role named "ADMIN" already exists/],
    ['POST', '/api/permissions', { name: 'view:media', description: '' }, /permission named "view:media" already exists/],
  ])('duplicate name: %s %s → 409', async (method, path, body, message) => {
    const res = await admin.json(method, path, body);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(message);
  });

  test('renaming a role onto an existing name → 409', async () => {
    const role = await newRole();
    const res = await admin.json('PUT', `/api/roles/${role.id}`, { name: 'staff', description: '' });
    expect(res.status).toBe(409);
  });

  test.each(['viewmedia', 'View:media', 'view:', ':media', 'view:media:all', 'view media', 'view:Media', '1view:media'])(
    'permission name %j is refused (400 naming name)',
    async (name) => {
      const res = await admin.json('POST', '/api/permissions', { name, description: '' });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^name: .*verb:resource/);
    },
  );

  test.each(['export:reports', 'view:client-files'])('permission name %j is accepted', async (name) => {
    const res = await admin.json('POST', '/api/permissions', { name, description: 'ok' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name, description: 'ok' });
  });

  test.each([
    ['POST', '/api/roles', { description: 'x' }, 'name'],
    ['POST', '/api/roles', { name: '  ', description: 'x' }, 'name'],
    ['POST', '/api/roles', { name: 'x', description: 5 }, 'description'],
  ])('%s %s %j → 400 naming %s', async (method, path, body, field) => {
    const res = await admin.json(method, path, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  test.each([
    ['PUT', '/api/roles/abc'],
    ['DELETE', '/api/roles/999999'],
    ['POST', '/api/roles/999999/permissions/1'],
    ['POST', '/api/roles/1/permissions/999999'],
    ['DELETE', '/api/roles/1/permissions/x'],
  ])('%s %s → 404', async (method, path) => {
    const res = await admin.json(method, path, method === 'PUT' ? { name: 'x', description: '' } : undefined);
    expect(res.status).toBe(404);
  });
});

describe('the protected Client role', () => {
  const attempts: [string, (role: any, perm: any) => [string, string, unknown?]][] = [
    ['edited', (r) => ['PUT', `/api/roles/${r.id}`, { name: 'Customers', description: '' }]],
    ['deleted', (r) => ['DELETE', `/api/roles/${r.id}`]],
    ['given a permission', (r, p) => ['POST', `/api/roles/${r.id}/permissions/${p.id}`]],
    ['stripped of a permission', (r, p) => ['DELETE', `/api/roles/${r.id}/permissions/${p.id}`]],
  ];
  test.each(attempts)('cannot be %s, even by an admin (403)', async (_l, make) => {
    const client = await roleNamed('Client');
    const perm = await permissionNamed('view:media');
    const [method, path, body] = make(client, perm);
    const res = await admin.json(method, path, body);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(
      `The Client role is protected and read-only: it can't ${{ PUT: 'be edited', DELETE: path.includes('permissions') ? 'lose permissions' : 'be deleted', POST: 'be given permissions' }[method]}.`,
    );
    expect(await roleNamed('Client')).toEqual(client);
  });
});

describe('the Admin role', () => {
  test('cannot be renamed or deleted while active users hold it', async () => {
    const adminRole = await roleNamed('Admin');
    const rename = await admin.json('PUT', `/api/roles/${adminRole.id}`, { name: 'Owners', description: '' });
    expect(rename.status).toBe(409);
    const del = await admin.json('DELETE', `/api/roles/${adminRole.id}`);
    expect(del.status).toBe(409);
    expect(del.body.message).toMatch(/can't be deleted/);
    const ok = await admin.json('PUT', `/api/roles/${adminRole.id}`, { name: 'Admin', description: 'Everything' });
    expect(ok.status).toBe(200);
  });
});
