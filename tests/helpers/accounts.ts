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
export async function createStaff(admin: Session, permissions: string[], password = 'staff-password-123') {
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

// ---- Direct database set-up (no API round trips): for tests of other areas that need
// a staff user with exact permissions or a client login with chosen names.

/** Creates a staff user with a dedicated role holding exactly `permissions` (names). */
export async function createStaffUser(
  server: import('./server.ts').TestServer,
  opts: { username?: string; password?: string; permissions: string[] },
): Promise<{ id: string; username: string; password: string; roleId: number }> {
  const { hashPassword } = await import('../../src/server/auth/password.ts');
  const username = opts.username ?? unique('staff');
  const password = opts.password ?? 'staff-password-123';
  const id = crypto.randomUUID();
  await server.sql.execute({
    sql: 'INSERT INTO users (id, username, email, password_hash, forename, surname, display_name) VALUES (?, ?, ?, ?, ?, ?, ?)',
    args: [id, username, `${username}@studio.test`, await hashPassword(password), 'Test', 'Staff', username],
  });
  const role = await server.sql.execute({ sql: 'INSERT INTO roles (name, description) VALUES (?, ?) RETURNING id', args: [unique('role-'), opts.permissions.join(', ')] });
  const roleId = Number(role.rows[0]!.id);
  for (const name of opts.permissions) {
    const r = await server.sql.execute({
      sql: 'INSERT INTO role_permissions (role_id, permission_id) SELECT ?, id FROM permissions WHERE name = ? RETURNING permission_id',
      args: [roleId, name],
    });
    if (!r.rows.length) throw new Error(`No permission named ${name}`);
  }
  await server.sql.execute({ sql: 'INSERT INTO user_roles (user_id, role_id) VALUES (?, ?)', args: [id, roleId] });
  return { id, username, password, roleId };
}

/** Creates a client with one active portal login (`clientId`: another login of that client). */
export async function createClientWithLogin(
  server: import('./server.ts').TestServer,
  opts: { name?: string; email?: string; username?: string; password?: string; clientId?: number } = {},
): Promise<{ clientId: number; clientUserId: number; name: string; email: string; username: string; password: string }> {
  const { hashPassword } = await import('../../src/server/auth/password.ts');
  const username = opts.username ?? unique('client.');
  const name = opts.name ?? `Client ${username}`;
  const email = opts.email ?? `${username}@clients.test`;
  const password = opts.password ?? 'client-pass-123';
  const clientId =
    opts.clientId ?? Number((await server.sql.execute({ sql: 'INSERT INTO clients (name, email) VALUES (?, ?) RETURNING id', args: [name, email] })).rows[0]!.id);
  const cu = await server.sql.execute({
    sql: 'INSERT INTO client_users (client_id, username, email, password_hash) VALUES (?, ?, ?, ?) RETURNING id',
    args: [clientId, username, `login.${email}`, await hashPassword(password)],
  });
  return { clientId, clientUserId: Number(cu.rows[0]!.id), name, email, username, password };
}

/**
 * One session per actor of the permission matrix, set up directly in the database (the
 * client is returned too, for tests that assign it).
 */
export async function matrixFromDb(server: import('./server.ts').TestServer, permission: string) {
  const without = await createStaffUser(server, { permissions: [] });
  const withIt = await createStaffUser(server, { permissions: [permission] });
  const client = await createClientWithLogin(server);
  const sessions: Record<Actor, Session> = {
    anonymous: new Session(server.url),
    client: await clientSession(server.url, client.username, client.password),
    'staff without it': await staffSession(server.url, without.username, without.password),
    'staff with it': await staffSession(server.url, withIt.username, withIt.password),
    admin: await adminSession(server.url),
  };
  return { sessions, client };
}
