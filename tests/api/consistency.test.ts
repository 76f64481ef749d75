// Issue 19 #17 (server side): custom permissions can be deleted, the Client role is not for
// staff users, and a duplicate client email names the value that clashes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { staffSession, type Session } from '../helpers/http.ts';
import { adminSession, createClientAccount, createStaff, expectStatus, unique } from '../helpers/accounts.ts';

let server: TestServer;
let admin: Session;
beforeAll(async () => {
  server = await startServer();
  admin = await adminSession(server.url);
});
afterAll(() => server?.stop());

const alpha = () => unique('').replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!);
const newPermission = async () => expectStatus(admin.json('POST', '/api/permissions', { name: `export:${alpha()}`, description: 'temp' }), 201);
const newRole = async (name = unique('Role ')) => expectStatus(admin.json('POST', '/api/roles', { name, description: 'temp' }), 201);
const permissions = async () => (await expectStatus(admin.json('GET', '/api/permissions'))) as { id: number; name: string; builtIn: boolean }[];

describe('DELETE /api/permissions/{id}', () => {
  test('a custom permission no role holds (beyond Admin, which gets every permission) is deleted', async () => {
    const p = await newPermission();
    const adminRole = (await server.sql.execute({ sql: "SELECT rp.role_id FROM role_permissions rp JOIN roles r ON r.id = rp.role_id WHERE r.name = 'Admin' AND rp.permission_id = ?", args: [p.id] })).rows;
    expect(adminRole.length).toBe(1);
    expect((await permissions()).find((x) => x.id === p.id)?.builtIn).toBe(false);
    const res = await admin.json('DELETE', `/api/permissions/${p.id}`);
    expect(res.status).toBe(200);
    expect((await permissions()).some((x) => x.id === p.id)).toBe(false);
  });

  test('a permission a role holds answers 409 naming the roles, and stays', async () => {
    const p = await newPermission();
    const a = await newRole('Colourists');
    const b = await newRole('Archivists');
    for (const r of [a, b]) await expectStatus(admin.json('POST', `/api/roles/${r.id}/permissions/${p.id}`));
    const res = await admin.json('DELETE', `/api/permissions/${p.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('"Archivists", "Colourists"');
    expect((await permissions()).some((x) => x.id === p.id)).toBe(true);
  });

  test.each(['view:media', 'edit:roles', 'edit:website'])('the built-in %s cannot be deleted', async (name) => {
    const p = (await permissions()).find((x) => x.name === name)!;
    expect(p.builtIn).toBe(true);
    const res = await admin.json('DELETE', `/api/permissions/${p.id}`);
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('built-in');
  });

  test('needs edit:roles; unknown ids are 404', async () => {
    const p = await newPermission();
    const s = await createStaff(admin, ['edit:users']);
    const editor = await staffSession(server.url, s.username, s.password);
    expect((await editor.json('DELETE', `/api/permissions/${p.id}`)).status).toBe(403);
    expect((await admin.json('DELETE', '/api/permissions/999999')).status).toBe(404);
    expect((await admin.json('DELETE', '/api/permissions/abc')).status).toBe(404);
  });
});

describe('the Client role and staff users', () => {
  test('giving a staff user the Client role is refused with a message', async () => {
    const s = await createStaff(admin, ['view:media']);
    const client = ((await expectStatus(admin.json('GET', '/api/roles'))) as { id: number; name: string }[]).find((r) => r.name === 'Client')!;
    const res = await admin.json('PUT', `/api/users/${s.user.id}/roles`, { roleIds: [s.role.id, client.id] });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('The Client role is for client portal accounts and cannot be given to staff users');
    const roles = await server.sql.execute({ sql: 'SELECT role_id FROM user_roles WHERE user_id = ?', args: [s.user.id] });
    expect(roles.rows.map((r) => Number(r.role_id))).toEqual([s.role.id]);
  });
});

describe('client email clash', () => {
  test.each([
    ['the same email', (e: string) => e],
    ['the email in capitals', (e: string) => e.toUpperCase()],
  ])('a new client with %s answers 409 naming it', async (_label, variant) => {
    const first = await createClientAccount(admin);
    const email = variant(first.client.email);
    const res = await admin.json('POST', '/api/clients', { name: 'Second', email, phone: '', company: '', notes: '', username: unique('c'), password: 'client-pass-123' });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain(`"${email}"`);
  });
});
