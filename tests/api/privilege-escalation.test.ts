// Nobody gains permissions they don't hold through edit:users or edit:roles (issue 19, item 4).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { Session, staffSession } from '../helpers/http.ts';
import { adminSession, createStaff, expectStatus, unique } from '../helpers/accounts.ts';

let server: TestServer;
let admin: Session;

beforeAll(async () => {
  server = await startServer();
  admin = await adminSession(server.url);
});
afterAll(() => server?.stop());

const roles = async () => (await expectStatus(admin.json('GET', '/api/roles'))) as { id: number; name: string; permissions: { name: string }[] }[];
const roleId = async (name: string) => (await roles()).find((r) => r.name === name)!.id;
const permissionId = async (name: string) =>
  ((await expectStatus(admin.json('GET', '/api/permissions'))) as { id: number; name: string }[]).find((p) => p.name === name)!.id;
const rolesOf = async (userId: string) =>
  ((await expectStatus(admin.json('GET', '/api/users'))) as any[]).find((u) => u.id === userId)!.roles.map((r: any) => r.name).sort();
const newUser = async () => {
  const username = unique('plain');
  return expectStatus(
    admin.json('POST', '/api/users', { username, email: `${username}@studio.test`, password: 'secret-words-123', forename: 'A', surname: 'B', displayName: 'A B' }),
    201,
  );
};

describe('a user manager holding only edit:users', () => {
  let manager: Awaited<ReturnType<typeof createStaff>>;
  let s: Session;
  beforeAll(async () => {
    manager = await createStaff(admin, ['edit:users', 'view:users']);
    s = await staffSession(server.url, manager.username, manager.password);
  });

  test.each([
    ['give themselves the Admin role', async () => [`/api/users/${manager.user.id}/roles`, { roleIds: [manager.role.id, await roleId('Admin')] }], /your own roles/],
    ['drop their own role', async () => [`/api/users/${manager.user.id}/roles`, { roleIds: [] }], /your own roles/],
    ['give another user the Admin role', async () => [`/api/users/${(await newUser()).id}/roles`, { roleIds: [await roleId('Admin')] }], /"Admin".*edit:roles/],
    ['give another user the Staff role', async () => [`/api/users/${(await newUser()).id}/roles`, { roleIds: [await roleId('Staff')] }], /"Staff".*view:media/],
  ])('cannot %s (403 saying why)', async (_label, make, message) => {
    const [path, body] = (await make()) as [string, unknown];
    const userId = path.split('/')[3]!;
    const before = await rolesOf(userId);
    const res = await s.json('PUT', path, body);
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(message);
    expect(await rolesOf(userId)).toEqual(before);
  });

  test('cannot change the password of, deactivate or delete a user holding more permissions', async () => {
    const adminUser = ((await admin.json('GET', '/api/users')).body as any[]).find((u) => u.username === ADMIN.username);
    const body = { username: adminUser.username, email: adminUser.email, forename: adminUser.forename, surname: adminUser.surname, displayName: adminUser.displayName, isActive: true, password: 'taken-over-password-1' };
    const put = await s.json('PUT', `/api/users/${adminUser.id}`, body);
    expect(put.status).toBe(403);
    expect(put.body.message).toMatch(/hold permissions you don't have/);
    expect((await s.json('DELETE', `/api/users/${adminUser.id}`)).status).toBe(403);
    // The admin's password still works.
    await staffSession(server.url, ADMIN.username, ADMIN.password);
  });

  test('can still give and take away a role within their own permissions, on users within them', async () => {
    const own = await expectStatus(admin.json('POST', '/api/roles', { name: unique('Viewers '), description: '' }), 201);
    await expectStatus(admin.json('POST', `/api/roles/${own.id}/permissions/${await permissionId('view:users')}`));
    const u = await newUser();
    expect((await s.json('PUT', `/api/users/${u.id}/roles`, { roleIds: [own.id] })).status).toBe(200);
    expect(await rolesOf(u.id)).toEqual([own.name]);
    expect((await s.json('PUT', `/api/users/${u.id}/roles`, { roleIds: [] })).status).toBe(200);
    // Saving one's own unchanged role set (the Edit User dialog does) is not a change.
    expect((await s.json('PUT', `/api/users/${manager.user.id}/roles`, { roleIds: [manager.role.id] })).status).toBe(200);
  });
});

describe('a role editor holding only edit:roles', () => {
  test('cannot give any role a permission they do not hold, their own role included', async () => {
    const editor = await createStaff(admin, ['edit:roles']);
    const s = await staffSession(server.url, editor.username, editor.password);
    for (const name of ['edit:users', 'view:media']) {
      const res = await s.json('POST', `/api/roles/${editor.role.id}/permissions/${await permissionId(name)}`);
      expect(res.status).toBe(403);
      expect(res.body.message).toContain(name);
    }
    const role = (await roles()).find((r) => r.id === editor.role.id)!;
    expect(role.permissions.map((p) => p.name)).toEqual(['edit:roles']);
    expect((await s.json('GET', '/api/users')).status).toBe(403);
  });

  test('an Admin can hand on a permission just created: new permissions belong to Admin', async () => {
    const perm = await expectStatus(admin.json('POST', '/api/permissions', { name: `export:reports${unique('').replace(/\d/g, 'x')}`, description: '' }), 201);
    expect((await roles()).find((r) => r.name === 'Admin')!.permissions.map((p) => p.name)).toContain(perm.name);
    const role = await expectStatus(admin.json('POST', '/api/roles', { name: unique('Reporters '), description: '' }), 201);
    expect((await admin.json('POST', `/api/roles/${role.id}/permissions/${perm.id}`)).status).toBe(200);
  });
});
