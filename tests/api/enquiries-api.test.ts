// Staff side of the inbox: GET /api/enquiries and PATCH /api/enquiries/{id}, with permissions.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { hashPassword } from '../../src/server/auth/password.ts';

let server: TestServer;
let admin: Session;
const PASSWORD = 'password-123';

beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
});
afterAll(() => server?.stop());

let seq = 0;
/** A staff user with the given role, or a role of its own holding `permissions`. */
async function addStaff(opts: { role?: string; permissions?: string[] }) {
  const name = `staff${++seq}`;
  const id = crypto.randomUUID();
  await server.sql.execute({
    sql: 'INSERT INTO users (id, username, email, password_hash) VALUES (?, ?, ?, ?)',
    args: [id, name, `${name}@studio.test`, await hashPassword(PASSWORD)],
  });
  let role = opts.role;
  if (!role) {
    role = `Role ${seq}`;
    await server.sql.execute({ sql: 'INSERT INTO roles (name) VALUES (?)', args: [role] });
    for (const p of opts.permissions ?? []) {
      await server.sql.execute({
        sql: 'INSERT INTO role_permissions (role_id, permission_id) SELECT r.id, p.id FROM roles r, permissions p WHERE r.name = ? AND p.name = ?',
        args: [role, p],
      });
    }
  }
  await server.sql.execute({ sql: 'INSERT INTO user_roles (user_id, role_id) SELECT ?, id FROM roles WHERE name = ?', args: [id, role] });
  return staffSession(server.url, name, PASSWORD);
}

async function addClientUser() {
  const n = ++seq;
  const c = await server.sql.execute({ sql: 'INSERT INTO clients (name, email) VALUES (?, ?) RETURNING id', args: [`Client ${n}`, `c${n}@example.test`] });
  await server.sql.execute({
    sql: 'INSERT INTO client_users (client_id, username, email, password_hash) VALUES (?, ?, ?, ?)',
    args: [Number(c.rows[0]!.id), `client${n}`, `client${n}@example.test`, await hashPassword(PASSWORD)],
  });
  return clientSession(server.url, `client${n}`, PASSWORD);
}

async function addEnquiry(e: { first?: string; last?: string; email?: string; message?: string; type?: string; status?: string; at: number }) {
  const r = await server.sql.execute({
    sql: `INSERT INTO enquiries (first_name, last_name, email, project_type, message, status, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    args: [e.first ?? 'Sam', e.last ?? 'Smith', e.email ?? 'sam@example.test', e.type ?? '', e.message ?? 'Hello', e.status ?? 'new', e.at],
  });
  return Number(r.rows[0]!.id);
}

const status = async (id: number) =>
  (await server.sql.execute({ sql: 'SELECT status FROM enquiries WHERE id = ?', args: [id] })).rows[0]!.status;

describe('GET /api/enquiries', () => {
  let ids: Record<string, number>;
  beforeAll(async () => {
    await server.sql.execute('DELETE FROM enquiries');
    const t = Date.UTC(2026, 0, 10, 9);
    ids = {
      oldest: await addEnquiry({ first: 'Olive', last: 'Oldham', email: 'olive@old.test', message: 'A corporate film', type: 'corporate', status: 'archived', at: t }),
      middle: await addEnquiry({ first: 'Mia', last: 'Middle', email: 'mia@mid.test', message: 'Wedding 100% video_please', status: 'read', at: t + 60_000 }),
      newest: await addEnquiry({ first: 'Nat', last: 'Newman', email: 'nat@new.test', message: 'Music video for a band', type: 'music-video', at: t + 120_000 }),
    };
  });

  test('lists every enquiry newest first with its fields', async () => {
    const res = await admin.json('GET', '/api/enquiries');
    expect(res.status).toBe(200);
    expect(res.body.map((e: { id: number }) => e.id)).toEqual([ids.newest, ids.middle, ids.oldest]);
    expect(res.body[0]).toEqual({
      id: ids.newest,
      firstName: 'Nat',
      lastName: 'Newman',
      email: 'nat@new.test',
      projectType: 'music-video',
      message: 'Music video for a band',
      status: 'new',
      createdAt: new Date(Date.UTC(2026, 0, 10, 9, 2)).toISOString(),
    });
  });

  test('a new enquiry posted through the contact form is listed first', async () => {
    const posted = await new Session(server.url).json('POST', '/api/contact', {
      firstName: 'Fresh',
      lastName: 'Visitor',
      email: 'fresh@example.test',
      projectType: 'documentary',
      message: 'Just sent',
    });
    expect(posted.status).toBe(201);
    const res = await admin.json('GET', '/api/enquiries');
    expect(res.body[0]).toMatchObject({ id: posted.body.id, firstName: 'Fresh', status: 'new', projectType: 'documentary' });
    await server.sql.execute({ sql: 'DELETE FROM enquiries WHERE id = ?', args: [posted.body.id] });
  });

  test.each([
    ['status=new', 'newest'],
    ['status=read', 'middle'],
    ['status=archived', 'oldest'],
    ['q=newman', 'newest'], // last name, any case
    ['q=nat%20newman', 'newest'], // full name
    ['q=old.test', 'oldest'], // email
    ['q=corporate%20film', 'oldest'], // message
    ['q=100%25', 'middle'], // % matches itself, not "anything"
    ['q=g_1', ''], // _ matches itself, so "Wedding 100%" (g, space, 1) does not match
    ['q=music&status=archived', ''],
  ])('filters with ?%s', async (query, expected) => {
    const res = await admin.json('GET', `/api/enquiries?${query}`);
    expect(res.status).toBe(200);
    expect(res.body.map((e: { id: number }) => e.id)).toEqual(expected ? [ids[expected]] : []);
  });

  test('an unknown status filter is 400', async () => {
    const res = await admin.json('GET', '/api/enquiries?status=spam');
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('status');
  });
});

describe('PATCH /api/enquiries/{id}', () => {
  test.each([
    ['new', 'read'],
    ['read', 'archived'],
    ['archived', 'read'], // Restore
    ['read', 'new'],
  ])('changes %s to %s and answers the enquiry', async (from, to) => {
    const id = await addEnquiry({ status: from, at: Date.now() });
    const res = await admin.json('PATCH', `/api/enquiries/${id}`, { status: to });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: to, firstName: 'Sam' });
    expect(await status(id)).toBe(to);
  });

  test.each([
    [{ status: 'deleted' }],
    [{ status: '' }],
    [{}],
    [{ status: 1 }],
  ])('rejects %j with 400 naming status and changes nothing', async (body) => {
    const id = await addEnquiry({ at: Date.now() });
    const res = await admin.json('PATCH', `/api/enquiries/${id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('status');
    expect(await status(id)).toBe('new');
  });

  test.each([['999999'], ['abc'], ['0'], ['1.5']])('an unknown or malformed id %s is 404', async (id) => {
    const res = await admin.json('PATCH', `/api/enquiries/${id}`, { status: 'read' });
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/enquiry not found/i);
  });
});

describe('permissions', () => {
  let id: number;
  const sessions: Record<string, () => Promise<Session>> = {
    anonymous: async () => new Session(server.url),
    'a client user': addClientUser,
    'staff without view:enquiries': () => addStaff({ permissions: ['view:media'] }),
    'staff with view:enquiries only': () => addStaff({ permissions: ['view:enquiries'] }),
    'the seeded Staff role': () => addStaff({ role: 'Staff' }),
    admin: async () => admin,
  };
  beforeAll(async () => {
    id = await addEnquiry({ at: Date.now() });
  });

  test.each([
    ['anonymous', 401],
    ['a client user', 401],
    ['staff without view:enquiries', 403],
    ['staff with view:enquiries only', 200],
    ['the seeded Staff role', 200],
    ['admin', 200],
  ])('%s: GET and PATCH answer %i', async (who, expected) => {
    const s = await sessions[who]!();
    const list = await s.json('GET', '/api/enquiries');
    expect(list.status).toBe(expected);
    await server.sql.execute({ sql: "UPDATE enquiries SET status = 'new' WHERE id = ?", args: [id] });
    const patch = await s.json('PATCH', `/api/enquiries/${id}`, { status: 'archived' });
    expect(patch.status).toBe(expected);
    expect(await status(id)).toBe(expected === 200 ? 'archived' : 'new');
    if (expected !== 200) {
      expect(list.body.message).toEqual(expect.any(String));
      expect(list.body).not.toBeInstanceOf(Array);
    }
  });

  test('the 403 names the missing permission; a 404 is not revealed before the permission check', async () => {
    const s = await addStaff({ permissions: [] });
    const res = await s.json('PATCH', '/api/enquiries/999999', { status: 'read' });
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('view:enquiries');
  });
});
