// Set-up for the accounts API tests: staff users holding exactly the given permissions and
// client logins, all created through the real API as the admin.
import { expect } from 'vitest';
import { ADMIN } from './server.ts';
import { clientSession, Session, staffSession } from './http.ts';

export type Actor = 'anonymous' | 'client' | 'staff without it' | 'staff with it' | 'admin';
export const ACTORS: Actor[] = ['anonymous', 'client', 'staff without it', 'staff with it', 'admin'];
export const REFUSAL: Partial<Record<Actor, number>> = { anonymous: 401, client: 401, 'staff without it': 403 };

let seq = 0;
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${++seq}`;

export async function adminSession(base: string) {
  return staffSession(base, ADMIN.username, ADMIN.password);
}

async function ok<T = any>(p: Promise<{ status: number; body: T }>, status = 200): Promise<T> {
  const res = await p;
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}
export { ok as expectStatus };

/** Creates a staff user (through the API) with a fresh role holding exactly `permissions`. */
export async function createStaff(admin: Session, permissions: string[], password = 'staff-pass-123') {
  const username = unique('staff');
  const user = await ok(
    admin.json('POST', '/api/users', {
      username,
      email: `${username}@studio.test`,
      password,
      forename: 'Test',
      surname: 'Staff',
      displayName: 'Test Staff',
    }),
    201,
  );
  const role = await ok(admin.json('POST', '/api/roles', { name: unique('role-'), description: permissions.join(', ') }), 201);
  const all: { id: number; name: string }[] = await ok(admin.json('GET', '/api/permissions'));
  for (const name of permissions) {
    const perm = all.find((p) => p.name === name);
    expect(perm, name).toBeTruthy();
    await ok(admin.json('POST', `/api/roles/${role.id}/permissions/${perm!.id}`));
  }
  await ok(admin.json('PUT', `/api/users/${user.id}/roles`, { roleIds: [role.id] }));
  return { user, role, username, password };
}

export async function staffWith(base: string, admin: Session, permissions: string[]) {
  const s = await createStaff(admin, permissions);
  return staffSession(base, s.username, s.password);
}

/** Creates a client with a portal login (through the API). */
export async function createClientAccount(admin: Session, password = 'client-pass-123') {
  const username = unique('client');
  const client = await ok(
    admin.json('POST', '/api/clients', {
      name: `Client ${username}`,
      email: `${username}@clients.test`,
      phone: '0116 000 0000',
      company: 'Acme Ltd',
      notes: 'Test client',
      username,
      password,
    }),
    201,
  );
  return { client, username, password };
}

/** One session per actor of the permission matrix. */
export async function matrixSessions(base: string, permission: string): Promise<Record<Actor, Session>> {
  const admin = await adminSession(base);
  const c = await createClientAccount(admin);
  return {
    anonymous: new Session(base),
    client: await clientSession(base, c.username, c.password),
    'staff without it': await staffWith(base, admin, []),
    'staff with it': await staffWith(base, admin, [permission]),
    admin,
  };
}
