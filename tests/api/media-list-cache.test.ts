// GET /api/media is served from a cache keyed by library_state.version, which SQLite
// triggers bump on every write that changes the list, from any process or connection.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { staffSession, type Session } from '../helpers/http.ts';

let server: TestServer;
let admin: Session;

beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  await server.sql.execute("INSERT INTO clients (id, name, email) VALUES (70, 'Old Name', 'c70@client.test')");
  await server.sql.execute(
    "INSERT INTO client_users (id, client_id, username, email, password_hash) VALUES (71, 70, 'c70', 'c70@client.test', 'x')",
  );
  await server.sql.execute(
    "INSERT INTO media (id, title, type, storage_key, url, filename, file_size, mime_type, tags) VALUES (80, 'First', 'image', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', '/media/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/original.jpg', 'a.jpg', 10, 'image/jpeg', '[]')",
  );
  await server.sql.execute('INSERT INTO media_clients (media_id, client_id) VALUES (80, 70)');
});
afterAll(() => server?.stop());

async function list() {
  const res = await admin.get('/api/media');
  expect(res.status).toBe(200);
  return { etag: res.headers.get('etag')!, items: (await res.json()) as any[] };
}

describe('GET /api/media cache', () => {
  test('repeated reads share an ETag and If-None-Match answers 304', async () => {
    const a = await list();
    const b = await list();
    expect(a.etag).toMatch(/^"media-\d+"$/);
    expect(b.etag).toBe(a.etag);
    const res = await admin.get('/api/media', { 'If-None-Match': a.etag });
    expect(res.status).toBe(304);
  });

  test.each([
    ['a title change', "UPDATE media SET title = 'Renamed' WHERE id = 80", (items: any[]) => items[0].title === 'Renamed'],
    ['a client rename', "UPDATE clients SET name = 'New Name' WHERE id = 70", (items: any[]) => items[0].assignedClients[0].name === 'New Name'],
    [
      'new feedback',
      "INSERT INTO client_feedback (media_id, client_user_id, feedback_text, rating) VALUES (80, 71, 'ok', 4)",
      (items: any[]) => items[0].feedbackCount === 1,
    ],
    [
      'a new timeline note',
      "INSERT INTO timeline_notes (media_id, client_user_id, timestamp_seconds, note_text) VALUES (80, 71, 3, 'here')",
      (items: any[]) => items[0].noteCount === 1,
    ],
    ['an unassignment', 'DELETE FROM media_clients WHERE media_id = 80', (items: any[]) => items[0].assignedClients.length === 0],
    [
      'a new item',
      "INSERT INTO media (id, title, type, storage_key, url, filename, file_size, mime_type, tags, created_at) VALUES (81, 'Second', 'video', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', '/media/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb/original.mp4', 'b.mp4', 10, 'video/mp4', '[]', 99999999999999)",
      (items: any[]) => items.length === 2 && items[0].id === 81,
    ],
    ['a deletion', 'DELETE FROM media WHERE id = 81', (items: any[]) => items.length === 1],
  ])('%s made by another connection shows on the next read', async (_label, statement, holds) => {
    const before = await list();
    await server.sql.execute(statement);
    const after = await list();
    expect(after.etag).not.toBe(before.etag);
    expect(holds(after.items)).toBe(true);
  });
});

// Through the real endpoints, which write only media_clients: the list must follow each change
// on the very next read (the media_clients triggers, not a media row update, make it so).
test('assigning and unassigning a client through the API shows on the next list read', async () => {
  await server.sql.execute("INSERT INTO clients (id, name, email) VALUES (73, 'Assigned Ltd', 'c73@client.test')");
  const clientsOf = (items: any[]) => items.find((i) => i.id === 80).assignedClients.map((c: any) => c.id);
  const before = await list();
  expect(clientsOf(before.items)).not.toContain(73);

  const assigned = await admin.post('/api/media/80/clients/73');
  expect(assigned.status).toBe(201);
  const afterAssign = await list();
  expect(afterAssign.etag).not.toBe(before.etag);
  expect(clientsOf(afterAssign.items)).toContain(73);

  const unassigned = await admin.delete('/api/media/80/clients/73');
  expect(unassigned.status).toBe(200);
  const afterUnassign = await list();
  expect(afterUnassign.etag).not.toBe(afterAssign.etag);
  expect(clientsOf(afterUnassign.items)).not.toContain(73);
});

test('a gzip-accepting client gets the same list gzip-encoded exactly once', async () => {
  const plain = await admin.get('/api/media', { 'Accept-Encoding': 'identity' });
  const plainItems = await plain.json();
  const res = await admin.get('/api/media', { 'Accept-Encoding': 'gzip, deflate, br' });
  expect(res.headers.get('content-encoding')).toBe('gzip');
  // fetch decodes once; a double encoding would not parse.
  expect(await res.json()).toEqual(plainItems);
});
