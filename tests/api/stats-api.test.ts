import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { hashPassword } from '../../src/server/auth/password.ts';

let server: TestServer;
let admin: Session;
beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
});
afterAll(() => server?.stop());

let seq = 0;
async function addUser(opts: { active?: boolean; role?: string } = {}) {
  const name = `user${++seq}`;
  const id = crypto.randomUUID();
  await server.sql.execute({
    sql: 'INSERT INTO users (id, username, email, password_hash, is_active) VALUES (?, ?, ?, ?, ?)',
    args: [id, name, `${name}@studio.test`, await hashPassword('password-123'), opts.active === false ? 0 : 1],
  });
  if (opts.role) {
    await server.sql.execute({ sql: 'INSERT INTO user_roles (user_id, role_id) SELECT ?, id FROM roles WHERE name = ?', args: [id, opts.role] });
  }
  return name;
}

async function addClient(active = true) {
  const n = ++seq;
  const r = await server.sql.execute({
    sql: 'INSERT INTO clients (name, email, is_active) VALUES (?, ?, ?) RETURNING id',
    args: [`Client ${n}`, `client${n}@example.test`, active ? 1 : 0],
  });
  return Number(r.rows[0]!.id);
}

async function addMedia(featured = false): Promise<number> {
  const n = ++seq;
  const r = await server.sql.execute({
    sql: `INSERT INTO media (title, type, storage_key, url, filename, file_size, mime_type, is_featured)
          VALUES (?, 'image', ?, ?, 'a.jpg', 10, 'image/jpeg', ?) RETURNING id`,
    args: [`Media ${n}`, `key-${n}`, `/media/key-${n}/original.jpg`, featured ? 1 : 0],
  });
  return Number(r.rows[0]!.id);
}

async function addEnquiry(status: 'new' | 'read' | 'archived') {
  await server.sql.execute({
    sql: "INSERT INTO enquiries (first_name, last_name, email, message, status) VALUES ('A', 'B', 'a@b.test', 'Hello', ?)",
    args: [status],
  });
}

async function dbCount(query: string): Promise<number> {
  const r = await server.sql.execute(query);
  return Number(r.rows[0]![0]);
}

async function expectedStats() {
  return {
    totalMedia: await dbCount('SELECT COUNT(*) FROM media'),
    activeClients: await dbCount('SELECT COUNT(*) FROM clients WHERE is_active = 1'),
    staffMembers: await dbCount('SELECT COUNT(*) FROM users WHERE is_active = 1'),
    featuredMedia: await dbCount('SELECT COUNT(*) FROM media WHERE is_featured = 1'),
    totalRoles: await dbCount('SELECT COUNT(*) FROM roles'),
    totalPermissions: await dbCount('SELECT COUNT(*) FROM permissions'),
    newEnquiries: await dbCount("SELECT COUNT(*) FROM enquiries WHERE status = 'new'"),
    awaitingApproval: await dbCount(`SELECT COUNT(*) FROM media m JOIN media_versions v ON v.storage_key = m.storage_key
      WHERE v.approval_status = 'in_review' AND (m.client_id IS NOT NULL OR EXISTS (SELECT 1 FROM media_clients mc WHERE mc.media_id = m.id))`),
    changesRequested: await dbCount(`SELECT COUNT(*) FROM media m JOIN media_versions v ON v.storage_key = m.storage_key WHERE v.approval_status = 'changes_requested'`),
  };
}

describe('GET /api/stats', () => {
  test('signed out answers 401 with a message', async () => {
    const res = await new Session(server.url).json('GET', '/api/stats');
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/sign in/i);
  });

  test('a client portal session is not enough (401)', async () => {
    const clientId = await addClient();
    await server.sql.execute({
      sql: 'INSERT INTO client_users (client_id, username, email, password_hash) VALUES (?, ?, ?, ?)',
      args: [clientId, 'portal.user', 'portal.user@example.test', await hashPassword('portal-pass-1')],
    });
    const s = await clientSession(server.url, 'portal.user', 'portal-pass-1');
    expect((await s.json('GET', '/api/stats')).status).toBe(401);
  });

  test('a fresh install: the seeded roles and permissions, the admin, nothing else', async () => {
    const res = await admin.json('GET', '/api/stats');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(await expectedStats());
    expect(res.body.totalRoles).toBe(3);
    expect(res.body.totalPermissions).toBeGreaterThanOrEqual(9);
  });

  test('counts follow every kind of change and ignore inactive or handled rows', async () => {
    const before = (await admin.json('GET', '/api/stats')).body;
    await addMedia(false);
    await addMedia(true);
    await addMedia(true);
    await addClient(true);
    await addClient(false);
    await addUser({ active: true });
    await addUser({ active: false });
    await addEnquiry('new');
    await addEnquiry('new');
    await addEnquiry('read');
    await addEnquiry('archived');
    await server.sql.execute("INSERT INTO roles (name) VALUES ('Editor')");
    await server.sql.execute("INSERT INTO permissions (name) VALUES ('view:reports')");
    const after = await admin.json('GET', '/api/stats');
    expect(after.status).toBe(200);
    expect(after.body).toEqual(await expectedStats());
    expect(after.body).toEqual({
      totalMedia: before.totalMedia + 3,
      activeClients: before.activeClients + 1,
      staffMembers: before.staffMembers + 1,
      featuredMedia: before.featuredMedia + 2,
      totalRoles: before.totalRoles + 1,
      totalPermissions: before.totalPermissions + 1,
      newEnquiries: before.newEnquiries + 2,
      awaitingApproval: before.awaitingApproval,
      changesRequested: before.changesRequested,
    });
  });

  // Issue 29: a cut sent back with "Changes requested" is work for staff; the dashboard shows it
  // beside "Awaiting approval". Only the current version's decision counts.
  test('changesRequested counts items whose current version came back with changes requested', async () => {
    const before = (await admin.json('GET', '/api/stats')).body;
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(await addMedia(false));
    const setStatus = (id: number, status: string) =>
      server.sql.execute({ sql: 'UPDATE media_versions SET approval_status = ? WHERE storage_key = (SELECT storage_key FROM media WHERE id = ?)', args: [status, id] });
    await setStatus(ids[0]!, 'changes_requested');
    await setStatus(ids[1]!, 'changes_requested');
    await setStatus(ids[2]!, 'approved');
    const after = (await admin.json('GET', '/api/stats')).body;
    expect(after.changesRequested).toBe(before.changesRequested + 2);
    expect(after).toEqual(await expectedStats());
  });

  test.each([
    ['a Staff user', 'Staff'],
    ['a user with no role at all', undefined],
  ])('%s may read the stats (any signed-in staff user)', async (_label, role) => {
    const name = await addUser({ role });
    const s = await staffSession(server.url, name, 'password-123');
    const res = await s.json('GET', '/api/stats');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(await expectedStats());
  });

  test.each(['POST', 'PUT', 'PATCH', 'DELETE'])('%s is not allowed on the stats endpoint: JSON 405 naming GET', async (method) => {
    const res = await admin.request(method, '/api/stats', {});
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await res.json()).toEqual({ message: `${method} is not allowed here. Allowed: GET, HEAD.` });
  });
});
