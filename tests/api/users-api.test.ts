import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { ACTORS, REFUSAL, adminSession, createClientWithLogin, createStaff, createStaffUser, expectStatus, matrixSessions, unique, type Actor } from '../helpers/accounts.ts';

let server: TestServer;
let admin: Session;
const sessions: Record<string, Record<Actor, Session>> = {};

beforeAll(async () => {
  server = await startServer();
  admin = await adminSession(server.url);
  sessions['view:users'] = await matrixSessions(server.url, 'view:users');
  sessions['edit:users'] = await matrixSessions(server.url, 'edit:users');
});
afterAll(() => server?.stop());

const newUser = (extra: Record<string, unknown> = {}) => {
  const username = unique('user');
  return { username, email: `${username}@studio.test`, password: 'secret-words-123', forename: 'Ada', surname: 'Lovelace', displayName: 'Ada Lovelace', ...extra };
};
const createUser = async (extra: Record<string, unknown> = {}) => {
  const body = newUser(extra);
  const user = await expectStatus(admin.json('POST', '/api/users', body), 201);
  return { ...user, password: body.password as string };
};
const roleId = async (name: string) => {
  const roles: { id: number; name: string }[] = await expectStatus(admin.json('GET', '/api/roles'));
  return roles.find((r) => r.name === name)!.id;
};
const editBody = (u: any, extra: Record<string, unknown> = {}) => ({
  username: u.username,
  email: u.email,
  forename: u.forename,
  surname: u.surname,
  displayName: u.displayName,
  isActive: true,
  ...extra,
});

// Each row prepares a fresh target so every actor's attempt can really succeed or be refused.
const ENDPOINTS: [string, string, string, number, () => Promise<{ path: string; body?: unknown }>][] = [
  ['GET', '/api/users', 'view:users', 200, async () => ({ path: '/api/users' })],
  ['POST', '/api/users', 'edit:users', 201, async () => ({ path: '/api/users', body: newUser() })],
  ['PUT', '/api/users/{id}', 'edit:users', 200, async () => {
    const u = await createUser();
    return { path: `/api/users/${u.id}`, body: editBody(u, { displayName: 'Renamed' }) };
  }],
  ['PUT', '/api/users/{id}/roles', 'edit:users', 200, async () => {
    const u = await createUser();
    // A role without permissions: nobody may hand out a permission they lack (privilege-escalation tests).
    const empty = await expectStatus(admin.json('POST', '/api/roles', { name: unique('Empty '), description: '' }), 201);
    return { path: `/api/users/${u.id}/roles`, body: { roleIds: [empty.id] } };
  }],
  ['DELETE', '/api/users/{id}', 'edit:users', 200, async () => ({ path: `/api/users/${(await createUser()).id}` })],
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
    if (expected === 401) expect(res.body.message).toMatch(/sign in/i);
  });
});

describe('GET /api/users', () => {
  test('lists users with their roles and never a password hash', async () => {
    const res = await admin.json('GET', '/api/users');
    expect(res.status).toBe(200);
    const me = res.body.find((u: any) => u.username === ADMIN.username);
    expect(me.roles).toEqual([{ id: await roleId('Admin'), name: 'Admin' }]);
    expect(Object.keys(me).sort()).toEqual(['createdAt', 'displayName', 'email', 'forename', 'id', 'isActive', 'roles', 'secondFactor', 'secondFactorRequired', 'surname', 'username']);
    expect(JSON.stringify(res.body)).not.toMatch(/password|argon2/i);
  });
});

describe('POST /api/users', () => {
  test('creates a user who can sign in', async () => {
    const u = await createUser();
    expect(u.roles).toEqual([]);
    expect(u.isActive).toBe(true);
    await staffSession(server.url, u.username, u.password);
  });

  test.each([
    ['username', { username: undefined }],
    ['username', { username: 'a b' }],
    ['email', { email: 'not-an-email' }],
    ['password', { password: '12345' }],
    ['forename', { forename: '' }],
    ['surname', { surname: '   ' }],
    ['displayName', { displayName: undefined }],
  ])('rejects a bad %s with 400 naming it', async (field, extra) => {
    const res = await admin.json('POST', '/api/users', newUser(extra));
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  test.each([
    ['username', (u: any) => ({ username: u.username.toUpperCase() }), /username .* already taken/i],
    ['email', (u: any) => ({ email: u.email.toUpperCase() }), /email .* already used/i],
  ])('duplicate %s → 409 with a clear message', async (_f, clash, message) => {
    const u = await createUser();
    const res = await admin.json('POST', '/api/users', newUser(clash(u)));
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(message);
  });
});

describe('PUT /api/users/{id}', () => {
  test('updates details and keeps the password when none is sent', async () => {
    const u = await createUser();
    const res = await admin.json('PUT', `/api/users/${u.id}`, editBody(u, { forename: 'Grace', displayName: 'Grace L' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ forename: 'Grace', displayName: 'Grace L' });
    await staffSession(server.url, u.username, u.password);
  });

  test.each([
    ['password', { password: 'abc' }, /at least 15/],
    ['isActive', { isActive: 'yes' }, /isActive/],
    ['email', { email: 'nope' }, /email/],
  ])('rejects a bad %s with 400', async (_f, extra, message) => {
    const u = await createUser();
    const res = await admin.json('PUT', `/api/users/${u.id}`, editBody(u, extra));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  test("taking another user's username → 409", async () => {
    const a = await createUser();
    const b = await createUser();
    const res = await admin.json('PUT', `/api/users/${b.id}`, editBody(b, { username: a.username }));
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/already taken/);
  });

  test.each([
    ['malformed id', '/api/users/123'],
    ['unknown id', `/api/users/${crypto.randomUUID()}`],
  ])('%s → 404', async (_l, path) => {
    const res = await admin.json('PUT', path, editBody(newUser()));
    expect(res.status).toBe(404);
    expect((await admin.json('DELETE', path)).status).toBe(404);
    expect((await admin.json('PUT', `${path}/roles`, { roleIds: [] })).status).toBe(404);
  });

  // Which changes end the account's sessions (and which don't).
  test.each([
    ['deactivating', { isActive: false }, true],
    ['changing the password', { password: 'a-brand-new-password' }, true],
    ['renaming', { displayName: 'Still signed in' }, false],
  ])('%s ends sessions: %s', async (_l, change, ends) => {
    const u = await createUser();
    const theirs = await staffSession(server.url, u.username, u.password);
    expect((await theirs.json('GET', '/api/user')).status).toBe(200);
    expect((await admin.json('PUT', `/api/users/${u.id}`, editBody(u, change))).status).toBe(200);
    expect((await theirs.json('GET', '/api/user')).status).toBe(ends ? 401 : 200);
    const rows = await server.sql.execute({ sql: 'select count(*) as n from staff_sessions where user_id = ?', args: [u.id] });
    expect(Number(rows.rows[0]!.n)).toBe(ends ? 0 : 1);
  });

  test('a deactivated user is refused at sign-in; reactivated they can sign in again', async () => {
    const u = await createUser();
    await expectStatus(admin.json('PUT', `/api/users/${u.id}`, editBody(u, { isActive: false })));
    const res = await new Session(server.url).json('POST', '/api/login', { username: u.username, password: u.password });
    expect(res.status).toBe(401);
    await expectStatus(admin.json('PUT', `/api/users/${u.id}`, editBody(u, { isActive: true })));
    await staffSession(server.url, u.username, u.password);
  });

  test('after a password change the old password is refused and the new one works', async () => {
    const u = await createUser();
    await expectStatus(admin.json('PUT', `/api/users/${u.id}`, editBody(u, { password: 'a-changed-password' })));
    expect((await new Session(server.url).json('POST', '/api/login', { username: u.username, password: u.password })).status).toBe(401);
    await staffSession(server.url, u.username, 'a-changed-password');
  });

  test('changing your own password keeps you signed in here but ends your other sessions', async () => {
    const s = await createStaff(admin, ['edit:users']);
    const here = await staffSession(server.url, s.username, s.password);
    const elsewhere = await staffSession(server.url, s.username, s.password);
    const res = await here.json('PUT', `/api/users/${s.user.id}`, editBody(s.user, { password: 'my-own-new-password' }));
    expect(res.status).toBe(200);
    expect((await here.json('GET', '/api/user')).status).toBe(200);
    expect((await elsewhere.json('GET', '/api/user')).status).toBe(401);
  });
});

describe('PUT /api/users/{id}/roles', () => {
  test('replaces the role set and the new permissions apply at once', async () => {
    const u = await createUser();
    const theirs = await staffSession(server.url, u.username, u.password);
    expect((await theirs.json('GET', '/api/clients')).status).toBe(403);
    const res = await admin.json('PUT', `/api/users/${u.id}/roles`, { roleIds: [await roleId('Staff')] });
    expect(res.status).toBe(200);
    expect(res.body.roles.map((r: any) => r.name)).toEqual(['Staff']);
    expect((await theirs.json('GET', '/api/clients')).status).toBe(200);
    const cleared = await admin.json('PUT', `/api/users/${u.id}/roles`, { roleIds: [] });
    expect(cleared.body.roles).toEqual([]);
  });

  test.each([
    [{ roleIds: 'Admin' }, /roleIds/],
    [{ roleIds: [1.5] }, /roleIds/],
    [{}, /roleIds/],
    [{ roleIds: [999999] }, /roleIds: no role with id 999999/],
  ])('rejects %j with 400', async (body, message) => {
    const u = await createUser();
    const res = await admin.json('PUT', `/api/users/${u.id}/roles`, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });
});

describe('DELETE /api/users/{id}', () => {
  test('deletes the user and ends their sessions', async () => {
    const u = await createUser();
    const theirs = await staffSession(server.url, u.username, u.password);
    expect((await admin.json('DELETE', `/api/users/${u.id}`)).status).toBe(200);
    expect((await theirs.json('GET', '/api/user')).status).toBe(401);
    const list = await admin.json('GET', '/api/users');
    expect(list.body.some((x: any) => x.id === u.id)).toBe(false);
  });

  const selfActions: [string, (u: any) => [string, string, unknown]][] = [
    ['delete', (u) => ['DELETE', `/api/users/${u.id}`, undefined]],
    ['deactivate', (u) => ['PUT', `/api/users/${u.id}`, editBody(u, { isActive: false })]],
  ];
  test.each(selfActions)('nobody can %s their own account (403)', async (_l, make) => {
    const s = await createStaff(admin, ['edit:users']);
    const own = await staffSession(server.url, s.username, s.password);
    const [method, path, body] = make(s.user);
    const res = await own.json(method, path, body);
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/your own account/);
    expect((await own.json('GET', '/api/user')).status).toBe(200);
  });
});

describe('the last active Admin', () => {
  // A user manager who is not an Admin (but holds every permission the Admin does, so the
  // no-escalation rule lets them act on Admins) tries to take the studio's only Admin away.
  let manager: Session;
  let adminUser: any;
  beforeAll(async () => {
    const all: { name: string }[] = await expectStatus(admin.json('GET', '/api/permissions'));
    const s = await createStaff(admin, all.map((p) => p.name));
    manager = await staffSession(server.url, s.username, s.password);
    adminUser = (await admin.json('GET', '/api/users')).body.find((u: any) => u.username === ADMIN.username);
  });

  const attempts: [string, () => Promise<{ status: number; body: any }>][] = [
    ['deactivated', () => manager.json('PUT', `/api/users/${adminUser.id}`, editBody(adminUser, { isActive: false }))],
    ['stripped of the Admin role', () => manager.json('PUT', `/api/users/${adminUser.id}/roles`, { roleIds: [] })],
    ['deleted', () => manager.json('DELETE', `/api/users/${adminUser.id}`)],
  ];

  test.each(attempts)('cannot be %s (409)', async (_l, attempt) => {
    const res = await attempt();
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/last active Admin/);
    const me = await admin.json('GET', '/api/user');
    expect(me.status).toBe(200);
    expect((await admin.json('GET', '/api/user/roles')).body.map((r: any) => r.name)).toContain('Admin');
  });

  test('an inactive second Admin does not count; an active one does', async () => {
    const second = await createUser();
    await expectStatus(admin.json('PUT', `/api/users/${second.id}/roles`, { roleIds: [await roleId('Admin')] }));
    await expectStatus(admin.json('PUT', `/api/users/${second.id}`, editBody(second, { isActive: false })));
    expect((await attempts[1]![1]()).status).toBe(409);
    await expectStatus(admin.json('PUT', `/api/users/${second.id}`, editBody(second, { isActive: true })));
    // Now the second Admin may lose the role (the first remains), but then the first is last again.
    expect((await manager.json('PUT', `/api/users/${second.id}/roles`, { roleIds: [] })).status).toBe(200);
    expect((await attempts[2]![1]()).status).toBe(409);
  });
});

describe('passwords as they are set (issue 53: NIST SP 800-63B)', () => {
  type Setter = (password: string, names?: { username: string }) => Promise<{ status: number; body: any }>;
  const SETTERS: [string, 'staff' | 'client', Setter][] = [
    ['creating a staff user', 'staff', (password, names) => admin.json('POST', '/api/users', newUser({ password, ...names }))],
    ['changing a staff password', 'staff', async (password, names) => {
      const u = await createUser(names);
      return admin.json('PUT', `/api/users/${u.id}`, editBody(u, { password }));
    }],
    ['creating a client login', 'client', (password, names) => {
      const username = names?.username ?? unique('cl');
      return admin.json('POST', '/api/clients', { name: 'Client', email: `${username}@clients.test`, username, password });
    }],
    ['resetting a client password', 'client', async (password) => {
      const username = unique('cl');
      const made = await expectStatus(admin.json('POST', '/api/clients', { name: 'Client', email: `${username}@clients.test`, username, password: 'first-client-pw' }), 201);
      return admin.json('PUT', `/api/clients/${made.id}/reset-password`, { password });
    }],
  ];
  const CASES = {
    staff: { short: 'fourteen-chars', min: /at least 15 characters/, ok: 'fifteen-chars-x', common: 'abcabcabcabcabc' },
    client: { short: 'seven-7', min: /at least 8 characters/, ok: 'eight-ch', common: 'Password1' },
  };

  test.each(SETTERS)('%s: refused under the length or common, taken at the length', async (_what, kind, set) => {
    const c = CASES[kind];
    for (const [password, message] of [[c.short, c.min], [c.common, /too common/]] as const) {
      const res = await set(password);
      expect(res.status, password).toBe(400);
      expect(res.body.message).toMatch(/^password: /);
      expect(res.body.message).toMatch(message);
    }
    expect([200, 201]).toContain((await set(c.ok)).status);
  });

  test.each(SETTERS.filter(([what]) => what.startsWith('creating')))('%s: the username as the password is refused', async (_what, _kind, set) => {
    const username = unique('a-long-username-');
    const res = await set(username, { username });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('password: The password must not be the username or email address');
  });

  test('accounts made before keep signing in with their shorter passwords', async () => {
    const staff = await createStaffUser(server, { password: 'six-ch', permissions: [] });
    await staffSession(server.url, staff.username, 'six-ch');
    const login = await createClientWithLogin(server, { password: 'short' });
    await clientSession(server.url, login.username, 'short');
  });
});
