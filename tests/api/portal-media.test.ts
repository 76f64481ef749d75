// The client portal API: only assigned media, own feedback and notes, every validation rule.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithPortalLogin, createVideo, type ClientLogin, type MediaFixture } from '../helpers/portal-fixtures.ts';

let server: TestServer;
let alice: ClientLogin;
let bob: ClientLogin;
let aliceSession: Session;
let bobSession: Session;
let aliceOwned: MediaFixture; // media.client_id = alice
let aliceLinked: MediaFixture; // media_clients link to alice (owner none)
let bobOnly: MediaFixture;
let shared: MediaFixture; // owned by bob, linked to alice
let unassigned: MediaFixture;
let noDuration: MediaFixture;

beforeAll(async () => {
  server = await startServer();
  alice = await createClientWithPortalLogin(server, 'Alice');
  bob = await createClientWithPortalLogin(server, 'Bob');
  const day = 24 * 3600 * 1000;
  aliceOwned = await createVideo(server, {
    title: 'Alice owned',
    clientId: alice.clientId,
    tags: ['wedding', 'highlights', 'drone'],
    projectStage: 'post-production',
    notes: 'First cut',
    createdAt: Date.now() - 3 * day,
    durationSeconds: 10,
  });
  aliceLinked = await createVideo(server, { title: 'Alice linked', assign: [alice.clientId], createdAt: Date.now() - 2 * day });
  bobOnly = await createVideo(server, { title: 'Bob only', clientId: bob.clientId, createdAt: Date.now() - day });
  shared = await createVideo(server, { title: 'Shared', clientId: bob.clientId, assign: [alice.clientId], createdAt: Date.now() });
  unassigned = await createVideo(server, { title: 'Nobody' });
  noDuration = await createVideo(server, { title: 'No duration', clientId: alice.clientId, durationSeconds: null, createdAt: Date.now() - 10 * day });
  aliceSession = await clientSession(server.url, alice.username, alice.password);
  bobSession = await clientSession(server.url, bob.username, bob.password);
});
afterAll(() => server?.stop());

const feedbackPath = (id: number) => `/api/client/media/${id}/feedback`;
const notesPath = (id: number) => `/api/client/media/${id}/timeline-notes`;

describe('GET /api/client/media', () => {
  test('lists only media assigned to the client (link or clientId), newest first, with every field', async () => {
    const res = await aliceSession.json('GET', '/api/client/media');
    expect(res.status).toBe(200);
    expect(res.body.map((m: any) => m.title)).toEqual(['Shared', 'Alice linked', 'Alice owned', 'No duration']);
    const item = res.body.find((m: any) => m.id === aliceOwned.id);
    expect(item).toMatchObject({
      title: 'Alice owned',
      type: 'video',
      url: aliceOwned.url,
      mimeType: 'video/mp4',
      tags: ['wedding', 'highlights', 'drone'],
      projectStage: 'post-production',
      notes: 'First cut',
      durationSeconds: 10,
      thumbnailUrl: null,
      thumbnailWebpUrl: null,
      webpUrl: null,
      posterUrl: null,
    });
    expect(item.fileSize).toBeGreaterThan(0);
    expect(Date.parse(item.createdAt)).not.toBeNaN();
    expect(Date.parse(item.uploadedAt)).not.toBeNaN();
    expect(item).not.toHaveProperty('storageKey');
    expect(item).not.toHaveProperty('uploadedBy');
  });

  test('the other client sees only its own', async () => {
    const res = await bobSession.json('GET', '/api/client/media');
    expect(res.status).toBe(200);
    expect(res.body.map((m: any) => m.id)).toEqual([shared.id, bobOnly.id]);
    expect(res.body.map((m: any) => m.id)).not.toContain(unassigned.id);
  });

  test.each([
    ['a comma-separated string', JSON.stringify(' wedding, drone ,, highlights ,'), ['wedding', 'drone', 'highlights']],
    ['plain comma-separated text', 'wedding,drone , ', ['wedding', 'drone']],
    ['a list', JSON.stringify(['wedding', ' drone ', '']), ['wedding', 'drone']],
    ['an empty string', JSON.stringify(''), []],
  ])('tags stored as %s are read as a trimmed list without empties (001 §3)', async (_what, stored, expected) => {
    const dave = await createClientWithPortalLogin(server, 'Dave');
    const item = await createVideo(server, { title: 'Tagged', clientId: dave.clientId });
    await server.sql.execute({ sql: 'UPDATE media SET tags = ? WHERE id = ?', args: [stored, item.id] });
    const s = await clientSession(server.url, dave.username, dave.password);
    const res = await s.json('GET', '/api/client/media');
    expect(res.status).toBe(200);
    expect(res.body.map((m: any) => m.tags)).toEqual([expected]);
  });

  test('a client with nothing assigned gets an empty list', async () => {
    const carol = await createClientWithPortalLogin(server, 'Carol');
    const s = await clientSession(server.url, carol.username, carol.password);
    const res = await s.json('GET', '/api/client/media');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});

describe('sessions', () => {
  test.each(['/api/client/media', '/api/client/media/feedback', '/api/client/media/timeline-notes'])('GET %s needs a client session', async (path) => {
    expect((await new Session(server.url).json('GET', path)).status).toBe(401);
    const staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
    expect((await staff.json('GET', path)).status).toBe(401);
  });

  test('POSTs need a client session; a staff session does not count', async () => {
    const staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
    const fb = await staff.json('POST', feedbackPath(aliceOwned.id), { mediaId: aliceOwned.id, feedbackText: 'x', rating: 3 });
    const note = await staff.json('POST', notesPath(aliceOwned.id), { mediaId: aliceOwned.id, timestampSeconds: 1, noteText: 'x' });
    const anon = await new Session(server.url).json('POST', feedbackPath(aliceOwned.id), { mediaId: aliceOwned.id, feedbackText: 'x', rating: 3 });
    expect([fb.status, note.status, anon.status]).toEqual([401, 401, 401]);
  });

  test.each(['/api/media', '/api/user'])('a client session cannot use the admin API (GET %s → 401)', async (path) => {
    const res = await aliceSession.json('GET', path);
    expect(res.status).toBe(401);
  });
});

describe('POST /api/client/media/{id}/feedback', () => {
  test('creates feedback (201) with trimmed text, listed for its author only', async () => {
    const res = await aliceSession.json('POST', feedbackPath(aliceOwned.id), { mediaId: aliceOwned.id, feedbackText: '  Lovely colours  ', rating: 5 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ mediaId: aliceOwned.id, feedbackText: 'Lovely colours', rating: 5, clientUsername: alice.username });
    expect(res.body.id).toEqual(expect.any(Number));
    const row = await server.sql.execute({ sql: 'SELECT client_user_id, rating FROM client_feedback WHERE id = ?', args: [res.body.id] });
    expect(Number(row.rows[0]!.client_user_id)).toBe(alice.clientUserId);

    const mine = await aliceSession.json('GET', '/api/client/media/feedback');
    expect(mine.body).toContainEqual(expect.objectContaining({ id: res.body.id, mediaId: aliceOwned.id, clientUsername: alice.username }));
    const theirs = await bobSession.json('GET', '/api/client/media/feedback');
    expect(theirs.body.map((f: any) => f.id)).not.toContain(res.body.id);
  });

  test.each([1, 2, 3, 4, 5])('accepts rating %i', async (rating) => {
    const res = await aliceSession.json('POST', feedbackPath(aliceLinked.id), { mediaId: aliceLinked.id, feedbackText: 'ok', rating });
    expect(res.status).toBe(201);
    expect(res.body.rating).toBe(rating);
  });

  test.each([
    ['rating 0', { rating: 0 }, 'rating'],
    ['rating 6', { rating: 6 }, 'rating'],
    ['rating 2.5', { rating: 2.5 }, 'rating'],
    ['rating as text', { rating: '4' }, 'rating'],
    ['missing rating', { rating: undefined }, 'rating'],
    ['blank text', { feedbackText: '   ' }, 'feedbackText'],
    ['empty text', { feedbackText: '' }, 'feedbackText'],
    ['missing text', { feedbackText: undefined }, 'feedbackText'],
    ['text over 5000 characters', { feedbackText: 'a'.repeat(5001) }, 'feedbackText'],
    ['missing mediaId', { mediaId: undefined }, 'mediaId'],
    ['mediaId of another item', { mediaId: 999999 }, 'mediaId'],
  ])('%s → 400 naming %s', async (_label, patch, field) => {
    const body = { mediaId: aliceOwned.id, feedbackText: 'Fine', rating: 4, ...patch };
    const before = await server.sql.execute('SELECT COUNT(*) AS n FROM client_feedback');
    const res = await aliceSession.json('POST', feedbackPath(aliceOwned.id), body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
    const after = await server.sql.execute('SELECT COUNT(*) AS n FROM client_feedback');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  test('text of exactly 5000 characters is accepted', async () => {
    const res = await aliceSession.json('POST', feedbackPath(aliceOwned.id), { mediaId: aliceOwned.id, feedbackText: 'b'.repeat(5000), rating: 2 });
    expect(res.status).toBe(201);
  });

  test.each([
    ['the other client’s item', () => bobOnly],
    ['an unassigned item', () => unassigned],
  ])('%s → 404', async (_label, pick) => {
    const m = pick();
    const res = await aliceSession.json('POST', feedbackPath(m.id), { mediaId: m.id, feedbackText: 'Sneaky', rating: 1 });
    expect(res.status).toBe(404);
    const rows = await server.sql.execute({ sql: 'SELECT COUNT(*) AS n FROM client_feedback WHERE media_id = ?', args: [m.id] });
    expect(Number(rows.rows[0]!.n)).toBe(0);
  });

  test.each(['999999', 'abc', '0'])('unknown or malformed id %s → 404', async (id) => {
    const res = await aliceSession.json('POST', `/api/client/media/${id}/feedback`, { mediaId: Number(id) || 1, feedbackText: 'x', rating: 3 });
    expect(res.status).toBe(404);
  });

  test('an item shared with both clients accepts feedback from each', async () => {
    const a = await aliceSession.json('POST', feedbackPath(shared.id), { mediaId: shared.id, feedbackText: 'From Alice', rating: 3 });
    const b = await bobSession.json('POST', feedbackPath(shared.id), { mediaId: shared.id, feedbackText: 'From Bob', rating: 4 });
    expect([a.status, b.status]).toEqual([201, 201]);
    const bobs = await bobSession.json('GET', '/api/client/media/feedback');
    expect(bobs.body.map((f: any) => f.feedbackText)).toEqual(['From Bob']);
  });
});

describe('POST /api/client/media/{id}/timeline-notes', () => {
  test('creates a note (201) with the timestamp rounded down, listed for its author only', async () => {
    const res = await aliceSession.json('POST', notesPath(aliceOwned.id), { mediaId: aliceOwned.id, timestampSeconds: 7.9, noteText: '  Cut here  ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ mediaId: aliceOwned.id, timestampSeconds: 7, noteText: 'Cut here', clientUsername: alice.username });
    const row = await server.sql.execute({ sql: 'SELECT timestamp_seconds FROM timeline_notes WHERE id = ?', args: [res.body.id] });
    expect(Number(row.rows[0]!.timestamp_seconds)).toBe(7);
    const mine = await aliceSession.json('GET', '/api/client/media/timeline-notes');
    expect(mine.status).toBe(200);
    expect(mine.body).toContainEqual(expect.objectContaining({ id: res.body.id, timestampSeconds: 7, clientUsername: alice.username }));
    const theirs = await bobSession.json('GET', '/api/client/media/timeline-notes');
    expect(theirs.body.map((n: any) => n.id)).not.toContain(res.body.id);
  });

  test('own notes come back in playback order', async () => {
    for (const t of [2.5, 0.4, 1.9]) {
      const r = await aliceSession.json('POST', notesPath(aliceLinked.id), { mediaId: aliceLinked.id, timestampSeconds: t, noteText: `at ${t}` });
      expect(r.status).toBe(201);
    }
    const res = await aliceSession.json('GET', '/api/client/media/timeline-notes');
    const times = res.body.filter((n: any) => n.mediaId === aliceLinked.id).map((n: any) => n.timestampSeconds);
    expect(times).toEqual([0, 1, 2]);
  });

  test.each([
    ['zero', 0, 0],
    ['exactly the duration', 10, 10],
    ['a fraction just past the last whole second', 10.4, 10],
  ])('timestamp %s is accepted', async (_label, ts, stored) => {
    const res = await aliceSession.json('POST', notesPath(aliceOwned.id), { mediaId: aliceOwned.id, timestampSeconds: ts, noteText: 'edge' });
    expect(res.status).toBe(201);
    expect(res.body.timestampSeconds).toBe(stored);
  });

  test('without a known duration a timestamp within 24 hours is accepted', async () => {
    const res = await aliceSession.json('POST', notesPath(noDuration.id), { mediaId: noDuration.id, timestampSeconds: 5000, noteText: 'late' });
    expect(res.status).toBe(201);
  });

  test.each([
    ['negative timestamp', { timestampSeconds: -1 }, 'timestampSeconds'],
    ['tiny negative timestamp', { timestampSeconds: -0.1 }, 'timestampSeconds'],
    ['timestamp beyond the duration', { timestampSeconds: 11 }, 'timestampSeconds'],
    ['timestamp as text', { timestampSeconds: '3' }, 'timestampSeconds'],
    ['missing timestamp', { timestampSeconds: undefined }, 'timestampSeconds'],
    ['blank note', { noteText: '  \n ' }, 'noteText'],
    ['missing note', { noteText: undefined }, 'noteText'],
    ['note over 5000 characters', { noteText: 'n'.repeat(5001) }, 'noteText'],
    ['mediaId of another item', { mediaId: 'OTHER' }, 'mediaId'],
  ])('%s → 400 naming %s', async (_label, patch, field) => {
    const body: Record<string, unknown> = { mediaId: aliceOwned.id, timestampSeconds: 2, noteText: 'Note', ...patch };
    if (body.mediaId === 'OTHER') body.mediaId = aliceLinked.id;
    const before = await server.sql.execute('SELECT COUNT(*) AS n FROM timeline_notes');
    const res = await aliceSession.json('POST', notesPath(aliceOwned.id), body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
    const after = await server.sql.execute('SELECT COUNT(*) AS n FROM timeline_notes');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  test.each([
    ['the other client’s item', () => bobOnly],
    ['an unassigned item', () => unassigned],
  ])('%s → 404', async (_label, pick) => {
    const m = pick();
    const res = await aliceSession.json('POST', notesPath(m.id), { mediaId: m.id, timestampSeconds: 1, noteText: 'Sneaky' });
    expect(res.status).toBe(404);
    const rows = await server.sql.execute({ sql: 'SELECT COUNT(*) AS n FROM timeline_notes WHERE media_id = ?', args: [m.id] });
    expect(Number(rows.rows[0]!.n)).toBe(0);
  });
});

describe('file delivery for clients', () => {
  test('a client fetches its own file, as an attachment with ?download=1, with ranges', async () => {
    const full = await aliceSession.get(aliceOwned.url);
    expect(full.status).toBe(200);
    const bytes = new Uint8Array(await full.arrayBuffer());
    expect(bytes.byteLength).toBeGreaterThan(0);
    const dl = await aliceSession.get(`${aliceOwned.url}?download=1`);
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-disposition')).toMatch(/^attachment/);
    await dl.arrayBuffer();
    const part = await aliceSession.get(aliceOwned.url, { Range: 'bytes=0-99' });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
  });

  test.each([
    ['the other client’s file', () => bobOnly],
    ['an unassigned file', () => unassigned],
  ])('%s → 404', async (_label, pick) => {
    const res = await aliceSession.get(pick().url);
    expect(res.status).toBe(404);
    await res.arrayBuffer();
  });
});
