// Client data rights (issue 56): the export ZIP holds everything kept about a client and their
// logins as JSON and CSV; erasing removes logins and personal data, keeps the answered threads
// as "Former client" and the files, in one transaction (a failure half way changes nothing),
// and both are audited. edit:clients guards both.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { Session, clientSession } from '../helpers/http.ts';
import { ACTORS, REFUSAL, adminSession, createClientAccount, expectStatus, matrixSessions, type Actor } from '../helpers/accounts.ts';
import { uploadImage } from '../helpers/media-uploads.ts';
import { scratchDir } from '../helpers/scratch.ts';
import { enrolTotp, nextCode } from '../helpers/second-factor.ts';

let server: TestServer;
let admin: Session;

beforeAll(async () => {
  server = await startServer({ env: { WORKER: 'off' } });
  admin = await adminSession(server.url);
});
afterAll(() => server?.stop());

function unzip(buf: Buffer) {
  const file = path.join(scratchDir('client-zip-'), 'a.zip');
  fs.writeFileSync(file, buf);
  execFileSync('unzip', ['-tq', file]);
  const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n');
  const read = (name: string) => execFileSync('unzip', ['-p', file, name], { encoding: 'utf8' });
  return { names, read, json: (name: string) => JSON.parse(read(name)) as Record<string, unknown>[] };
}

const count = async (sql: string, args: (string | number)[] = []) => Number((await server.sql.execute({ sql, args })).rows[0]!.n);

/** A client with a login, two assigned images, feedback on both (one answered by the studio) and a session. */
async function clientWithHistory() {
  const c = await createClientAccount(admin);
  const portal = await clientSession(server.url, c.username, c.password);
  const items = [await uploadImage(admin, { title: 'Answered still' }), await uploadImage(admin, { title: 'Quiet still' })];
  for (const m of items) await expectStatus(admin.json('POST', `/api/media/${m.id}/clients/${c.client.id}`), 201);
  const answered = await expectStatus(portal.json('POST', `/api/client/media/${items[0]!.id}/feedback`, { mediaId: items[0]!.id, rating: 5, feedbackText: 'Love the light here' }), 201);
  await expectStatus(portal.json('POST', `/api/client/media/${items[1]!.id}/feedback`, { mediaId: items[1]!.id, rating: 3, feedbackText: 'Could be warmer' }), 201);
  await expectStatus(admin.json('POST', `/api/admin/media/feedback/${answered.id}/replies`, { text: 'Thank you, we will keep it' }), 201);
  return { ...c, portal, items, answeredId: answered.id as number };
}

describe('edit:clients guards export and erase', () => {
  let sessions: Record<Actor, Session>;
  beforeAll(async () => {
    sessions = await matrixSessions(server.url, 'edit:clients');
  });
  test.each(ACTORS)('GET /api/clients/{id}/export as %s', async (actor) => {
    const { client } = await createClientAccount(admin);
    const res = await sessions[actor].get(`/api/clients/${client.id}/export`);
    expect(res.status).toBe(REFUSAL[actor] ?? 200);
  });
  test.each(ACTORS)('POST /api/clients/{id}/erase as %s', async (actor) => {
    const { client } = await createClientAccount(admin);
    const res = await sessions[actor].json('POST', `/api/clients/${client.id}/erase`, { confirmName: client.name });
    expect(res.status).toBe(REFUSAL[actor] ?? 200);
  });
});

test('the export is a ZIP of JSON and CSV holding the profile, logins, assignments, feedback, emails and audit rows', async () => {
  const c = await clientWithHistory();
  // The login protects itself with an authenticator app and trusts a browser (issue 56).
  const { secret } = await enrolTotp(c.portal, '/api/client/second-factor');
  const browser = new Session(server.url);
  expect((await browser.json('POST', '/api/client/login', { username: c.username, password: c.password })).status).toBe(202);
  await expectStatus(browser.json('POST', '/api/client/login/verify', { factor: 'totp', code: await nextCode(secret), trustBrowser: true }));
  const res = await admin.get(`/api/clients/${c.client.id}/export`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  expect(res.headers.get('content-disposition')).toContain('.zip');
  const zip = unzip(Buffer.from(await res.arrayBuffer()));
  const tables = ['profile', 'logins', 'sessions', 'second_factors', 'assignments', 'feedback', 'timeline_notes', 'replies', 'approvals', 'galleries', 'picks', 'selections', 'downloads', 'emails', 'audit_log'];
  expect(zip.names.sort()).toEqual(['README.txt', ...tables.flatMap((t) => [`${t}.json`, `${t}.csv`])].sort());
  expect(zip.json('profile.json')[0]).toMatchObject({ id: c.client.id, name: c.client.name, email: c.client.email });
  const logins = zip.json('logins.json');
  expect(logins).toEqual([expect.objectContaining({ username: c.username })]);
  expect(zip.read('logins.json')).not.toMatch(/password|argon2/);
  expect(zip.json('assignments.json').map((a) => a.media_id).sort()).toEqual(c.items.map((i) => i.id).sort());
  expect(zip.json('feedback.json').map((f) => f.feedback_text).sort()).toEqual(['Could be warmer', 'Love the light here']);
  expect(zip.json('sessions.json').length).toBeGreaterThanOrEqual(1);
  expect(zip.json('emails.json').length).toBeGreaterThanOrEqual(1);
  expect(zip.json('audit_log.json').map((r) => r.kind)).toEqual(expect.arrayContaining(['client.created', 'sign_in.succeeded', 'factor.added']));
  // Second factors: when the app was added and last used, codes left, browsers trusted; never a secret or a hash.
  expect(zip.json('second_factors.json')).toEqual([
    expect.objectContaining({ login_id: logins[0]!.id, authenticator_added_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), authenticator_last_used_at: expect.stringMatching(/^\d{4}-/), recovery_codes_left: 10, trusted_browsers: 1 }),
  ]);
  expect(zip.read('second_factors.json')).not.toContain(secret);
  expect(zip.read('second_factors.json')).not.toMatch(/secret|hash/i);
  // The CSV has the same rows under a header.
  const csv = zip.read('feedback.csv').trim().split('\r\n');
  expect(csv[0]).toBe('id,media_id,title,login_id,rating,feedback_text,created_at');
  expect(csv.length).toBe(3);
  expect(zip.read('README.txt')).toContain('feedback: Feedback given in the portal (2 rows)');
  const audit = await expectStatus(admin.json('GET', `/api/audit?kind=client.exported&objectType=client&objectId=${c.client.id}`));
  expect(audit.rows).toHaveLength(1);
}, 60_000);

test('erasing needs the client’s name typed again', async () => {
  const { client } = await createClientAccount(admin);
  const r = await admin.json('POST', `/api/clients/${client.id}/erase`, { confirmName: 'Someone else' });
  expect(r.status).toBe(400);
  expect(r.body.message).toContain('confirmName');
  expect(await count('SELECT count(*) AS n FROM clients WHERE id = ? AND erased_at IS NULL', [client.id])).toBe(1);
});

test('a failure half way through an erase leaves everything as it was', async () => {
  const c = await clientWithHistory();
  const snapshot = async () => ({
    client: (await server.sql.execute({ sql: 'SELECT name, email, erased_at FROM clients WHERE id = ?', args: [c.client.id] })).rows[0],
    sessions: await count('SELECT count(*) AS n FROM client_sessions s JOIN client_users u ON u.id = s.client_user_id WHERE u.client_id = ?', [c.client.id]),
    feedback: await count('SELECT count(*) AS n FROM client_feedback f JOIN client_users u ON u.id = f.client_user_id WHERE u.client_id = ?', [c.client.id]),
    assignments: await count('SELECT count(*) AS n FROM media_clients WHERE client_id = ?', [c.client.id]),
    emails: await count("SELECT count(*) AS n FROM notification_outbox WHERE recipient_kind = 'client'"),
    head: await count('SELECT head_id AS n FROM audit_state'),
  });
  const before = await snapshot();
  // The login row is changed near the end of the erase, after most of its deletes.
  await server.sql.execute("CREATE TRIGGER planted_erase_failure BEFORE UPDATE ON client_users BEGIN SELECT RAISE(ABORT, 'planted failure'); END");
  try {
    const r = await admin.json('POST', `/api/clients/${c.client.id}/erase`, { confirmName: c.client.name });
    expect(r.status).toBeGreaterThanOrEqual(400);
  } finally {
    await server.sql.execute('DROP TRIGGER planted_erase_failure');
  }
  expect(await snapshot()).toEqual(before);
  expect((await c.portal.json('GET', '/api/client/profile')).status).toBe(200);
});

test('erase: logins and personal data go, answered threads stay as "Former client", files stay, and it is audited', async () => {
  const c = await clientWithHistory();
  const r = await admin.json('POST', `/api/clients/${c.client.id}/erase`, { confirmName: c.client.name });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body).toMatchObject({ clientId: c.client.id, logins: 1, keptThreads: 1, removedNotes: 1 });

  // Signed out and unable to sign in again; gone from the list, 404 to every call.
  expect((await c.portal.json('GET', '/api/client/profile')).status).toBe(401);
  expect((await new Session(server.url).json('POST', '/api/client/login', { username: c.username, password: c.password })).status).toBe(401);
  expect((await admin.json('GET', '/api/clients')).body.some((x: { id: number }) => x.id === c.client.id)).toBe(false);
  expect((await admin.json('PUT', `/api/clients/${c.client.id}/reset-password`, { password: 'another-1' })).status).toBe(404);

  // Nothing personal left in the rows that stay.
  const row = (await server.sql.execute({ sql: 'SELECT name, email, phone, company, notes, is_active, erased_at FROM clients WHERE id = ?', args: [c.client.id] })).rows[0]!;
  expect(row).toMatchObject({ name: 'Former client', phone: '', company: '', notes: '', is_active: 0 });
  expect(String(row.email)).toMatch(/@erased\.invalid$/);
  expect(row.erased_at).not.toBeNull();
  const login = (await server.sql.execute({ sql: 'SELECT username, email FROM client_users WHERE client_id = ?', args: [c.client.id] })).rows[0]!;
  expect(String(login.username)).toMatch(/^Former client \(\d+\)$/);
  expect(JSON.stringify(login)).not.toContain(c.username);
  expect(await count("SELECT count(*) AS n FROM notification_outbox WHERE recipient_kind = 'client' AND recipient_address LIKE ?", [`%${c.username}%`])).toBe(0);

  // The answered thread stays, under "Former client"; the unanswered feedback went.
  const kept = await server.sql.execute({ sql: 'SELECT f.id, f.feedback_text FROM client_feedback f JOIN client_users u ON u.id = f.client_user_id WHERE u.client_id = ?', args: [c.client.id] });
  expect(kept.rows.map((f) => f.feedback_text)).toEqual(['Love the light here']);
  const staffView = await admin.json('GET', '/api/admin/media/feedback');
  const thread = staffView.body.find((f: { id: number }) => f.id === c.answeredId);
  expect(JSON.stringify(thread)).toContain('Former client');
  expect(JSON.stringify(staffView.body)).not.toContain(c.username);

  // The files stay the studio's; the assignments ended.
  for (const m of c.items) expect((await admin.get(m.url)).status).toBe(200);
  expect(await count('SELECT count(*) AS n FROM media_clients WHERE client_id = ?', [c.client.id])).toBe(0);

  const audit = await expectStatus(admin.json('GET', `/api/audit?kind=client.erased&objectType=client&objectId=${c.client.id}`));
  expect(audit.rows).toEqual([expect.objectContaining({ objectName: 'Former client' })]);
  expect(audit.rows[0].detail).not.toContain(c.client.name);
});

test('erase: a login’s second factors go too (authenticator app, recovery codes)', async () => {
  const c = await createClientAccount(admin);
  await enrolTotp(await clientSession(server.url, c.username, c.password), '/api/client/second-factor');
  const held = (table: string) => count(`SELECT count(*) AS n FROM ${table} t JOIN client_users u ON u.id = t.client_user_id WHERE u.client_id = ?`, [c.client.id]);
  expect(await held('totp_factors')).toBe(1);
  expect(await held('recovery_codes')).toBeGreaterThan(0);
  await expectStatus(admin.json('POST', `/api/clients/${c.client.id}/erase`, { confirmName: c.client.name }));
  expect(await held('totp_factors')).toBe(0);
  expect(await held('recovery_codes')).toBe(0);
});
