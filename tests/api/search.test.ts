// Search across captions and notes (issue 54, item 5): words and "phrases", accents and case
// folded, the last word as you type; each hit names the item, version, track or note, the time
// the player opens at, and a snippet with the matched words marked (never HTML). The index
// follows every change by itself: a new revision, a revert, a deleted track or item, a note
// written, edited or deleted. What people type is only ever words (FTS5 syntax is plain text).
// GET /api/search needs view:media; a client login searches its items (GET /api/client/search),
// a share link's guests what the link shows (GET /api/share/:token/search). Runs on the
// embedded file and on sqld.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { ACTORS, REFUSAL, createClientWithLogin, expectStatus, matrixFromDb, type Actor } from '../helpers/accounts.ts';
import { createVideo } from '../helpers/portal-fixtures.ts';
import { srt, uploadCaption } from '../helpers/captions.ts';
import { enterLink } from '../helpers/proofing.ts';

let server: TestServer;
let admin: Session;
let film: { mediaId: number; versionId: number };

const search = async (q: string, s: Session = admin) => {
  const r = await s.json('GET', `/api/search?q=${encodeURIComponent(q)}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.hits as any[];
};
const texts = (hits: any[]) => hits.map((h) => h.snippet.map((p: any) => p.text).join(''));

async function newFilm(title: string) {
  const video = await createVideo(server, { title, durationSeconds: 60 });
  const versionId = Number((await server.sql.execute({ sql: 'SELECT id FROM media_versions WHERE media_id = ?', args: [video.id] })).rows[0]!.id);
  return { mediaId: video.id, versionId };
}

async function track(f: { mediaId: number; versionId: number }, language: string, cues: [number, number, string][]) {
  const up = await uploadCaption(admin, f.mediaId, f.versionId, srt(cues), { language, kind: 'subtitles' });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  return up.body.track.id as number;
}

async function note(mediaId: number, versionId: number, ms: number, text: string, internal = false) {
  const r = await server.sql.execute({
    sql: `INSERT INTO timeline_notes (media_id, version_id, timestamp_seconds, timestamp_ms, note_text, by_staff, internal, author_name) VALUES (?, ?, ?, ?, ?, 1, ?, 'Studio') RETURNING id`,
    args: [mediaId, versionId, Math.floor(ms / 1000), ms, text, internal ? 1 : 0],
  });
  return Number(r.rows[0]!.id);
}

beforeAll(async () => {
  server = await startServer({ env: { WORKER: 'off' } });
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  film = await newFilm('Harbour film');
  await track(film, 'fr', [
    [1000, 2000, 'Un café au lait, s’il vous plaît.'],
    [2500, 4000, 'Le <i>phare</i> de Zürich brille.'],
  ]);
}, 60_000);
afterAll(() => server?.stop());

describe('finding words', () => {
  test('accents and case are folded both ways; the hit names the item, version, track and the cue’s start', async () => {
    for (const q of ['CAFE', 'café', 'zurich']) expect((await search(q)).length, q).toBe(1);
    const [hit] = await search('cafe');
    expect(hit).toMatchObject({ kind: 'cue', mediaId: film.mediaId, title: 'Harbour film', versionId: film.versionId, versionNumber: 1, language: 'fr', atMs: 1000, noteId: null });
    expect(hit.snippet).toEqual([{ text: 'Un ', hit: false }, { text: 'café', hit: true }, { text: ' au lait, s’il vous plaît.', hit: false }]);
  });

  test('a cue is found by its words without its tags, and shown without them', async () => {
    const [hit] = await search('phare');
    expect(texts([hit])).toEqual(['Le phare de Zürich brille.']);
    expect(await search('i')).toEqual([]);
  });

  test('"phrases" keep their order; words are all required; the last word matches as a beginning', async () => {
    expect(await search('"au lait"')).toHaveLength(1);
    expect(await search('"lait au"')).toHaveLength(0);
    expect(await search('café phare')).toHaveLength(0);
    expect(await search('café lait')).toHaveLength(1);
    expect(await search('brill')).toHaveLength(1);
    // A finished word (a space after it) is matched whole.
    expect(await search('brill ')).toHaveLength(0);
  });

  test('past 1,000 matches the best are chosen among the newest 1,000; a more precise query still finds an older one', async () => {
    const docs = (n: number, text: string, at: number) =>
      server.sql.execute({
        sql: `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?) INSERT INTO search_docs (kind, media_id, at_ms, text) SELECT 'cue', ?, ?, ? FROM k`,
        args: [n, film.mediaId, at, text],
      });
    try {
      await docs(1, 'kittiwake kittiwake kittiwake', 999_999);
      await docs(1_100, 'a kittiwake on the quay', 1);
      const hits = await search('kittiwake');
      expect(hits).toHaveLength(50);
      expect(hits.every((h) => h.atMs === 1)).toBe(true);
      expect((await search('"kittiwake kittiwake"')).map((h) => h.atMs)).toEqual([999_999]);
    } finally {
      await server.sql.execute("DELETE FROM search_docs WHERE text LIKE '%kittiwake%'");
    }
  });

  test('the best come first: more of the word, then a shorter cue; equal ones the older first', async () => {
    const doc = (text: string, at: number) => server.sql.execute({ sql: `INSERT INTO search_docs (kind, media_id, at_ms, text) VALUES ('cue', ?, ?, ?)`, args: [film.mediaId, at, text] });
    try {
      await doc('a guillemot on the quay by the harbour wall at dawn', 3);
      await doc('Guillemot!', 2);
      await doc('guillemot, guillemot, guillemot', 1);
      await doc('a guillemot on the quay by the harbour wall at dawn', 4);
      expect((await search('guillemot')).map((h) => h.atMs)).toEqual([1, 2, 3, 4]);
      // The words of a phrase count where they stand together; a beginning counts the words it begins.
      expect((await search('"the quay"')).map((h) => h.atMs)).toEqual([3, 4]);
      expect((await search('guill')).map((h) => h.atMs)).toEqual([1, 2, 3, 4]);
    } finally {
      await server.sql.execute("DELETE FROM search_docs WHERE text LIKE '%guillemot%'");
    }
  });

  test.each([['OR'], ['cafe OR nothing'], ['NEAR(cafe lait)'], ['text:cafe'], ['"'], ['caf"e'], ['*'], ['^cafe'], ['cafe -lait'], ['(cafe']])('%s is words, never FTS5 syntax: an answer, not an error', async (q) => {
    const r = await admin.json('GET', `/api/search?q=${encodeURIComponent(q)}`);
    expect([200, 400]).toContain(r.status);
    if (r.status === 400) expect(r.body.message).toBe('Type a word to search for');
    else expect(Array.isArray(r.body.hits)).toBe(true);
  });

  test.each([
    ['', 'Type a word to search for'],
    ['   ', 'Type a word to search for'],
    ['"" ** ()', 'Type a word to search for'],
    ['x'.repeat(201), 'Search for at most 200 characters'],
  ])('q=%j is refused with a message', async (q, message) => {
    const r = await admin.json('GET', `/api/search?q=${encodeURIComponent(q)}`);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(message);
  });
});

describe('the index follows every change', () => {
  test('a new revision replaces the words; a revert brings them back; a deleted track takes them away', async () => {
    const f = await newFilm('Revision film');
    const trackId = await track(f, 'de', [[1000, 2000, 'Leuchtturm am Hafen']]);
    expect(await search('leuchtturm')).toHaveLength(1);
    const state = await admin.json('GET', `/api/media/${f.mediaId}/captions/${trackId}/cues`);
    const saved = await admin.json('PUT', `/api/media/${f.mediaId}/captions/${trackId}/cues`, { baseRevisionId: state.body.track.revisionId, cues: [{ startMs: 3000, endMs: 4000, text: 'Möwen über dem Kai' }] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await search('leuchtturm')).toHaveLength(0);
    expect((await search('mowen')).map((h) => [h.trackId, h.atMs])).toEqual([[trackId, 3000]]);
    expect((await admin.json('POST', `/api/media/${f.mediaId}/captions/${trackId}/revisions/1/revert`)).status).toBe(200);
    expect(await search('mowen')).toHaveLength(0);
    expect(await search('leuchtturm')).toHaveLength(1);
    expect((await admin.json('DELETE', `/api/media/${f.mediaId}/captions/${trackId}`)).status).toBe(200);
    expect(await search('leuchtturm')).toHaveLength(0);
  });

  test('a note is found at its time; edited, the new words; deleted, gone; a deleted item takes its cues and notes', async () => {
    const f = await newFilm('Notes film');
    await track(f, 'en', [[500, 1500, 'Seagulls over the quay']]);
    const id = await note(f.mediaId, f.versionId, 12_345, 'Colour shifts on the lighthouse');
    const [hit] = await search('lighthouse');
    expect(hit).toMatchObject({ kind: 'note', noteId: id, mediaId: f.mediaId, versionId: f.versionId, atMs: 12_345, trackId: null });
    await server.sql.execute({ sql: "UPDATE timeline_notes SET note_text = 'Grade the harbour wall' WHERE id = ?", args: [id] });
    expect(await search('lighthouse')).toHaveLength(0);
    expect(await search('harbour wall')).toHaveLength(1);
    await server.sql.execute({ sql: 'DELETE FROM timeline_notes WHERE id = ?', args: [id] });
    expect(await search('harbour wall')).toHaveLength(0);
    await note(f.mediaId, f.versionId, 1000, 'Keep the seagulls');
    expect(await search('seagulls')).toHaveLength(2);
    expect((await admin.json('DELETE', `/api/media/${f.mediaId}`)).status).toBe(200);
    expect(await search('seagulls')).toHaveLength(0);
    expect(Number((await server.sql.execute({ sql: 'SELECT count(*) AS n FROM search_docs WHERE media_id = ?', args: [f.mediaId] })).rows[0]!.n)).toBe(0);
  });
});

describe('GET /api/search needs view:media', () => {
  let sessions: Record<Actor, Session>;
  beforeAll(async () => {
    sessions = (await matrixFromDb(server, 'view:media')).sessions;
  });
  test.each(ACTORS)('as %s', async (actor) => {
    const r = await sessions[actor].json('GET', '/api/search?q=cafe');
    expect(r.status).toBe(REFUSAL[actor] ?? 200);
    if (r.status === 200) expect(r.body.hits).toHaveLength(1);
    else expect(r.body.hits).toBeUndefined();
  });
});

describe('a client login searches what the portal shows it', () => {
  test('its items’ captions, its own notes and the studio’s shared ones; never another item, an internal note or another login’s note', async () => {
    const a = await createClientWithLogin(server, { name: 'Lantern Co' });
    const aSecond = await createClientWithLogin(server, { clientId: a.clientId });
    const b = await createClientWithLogin(server, { name: 'Other Co' });
    const shared = await newFilm('Lantern cut');
    const elsewhere = await newFilm('Unassigned cut');
    for (const c of [a.clientId, b.clientId]) await server.sql.execute({ sql: 'INSERT INTO media_clients (media_id, client_id) VALUES (?, ?)', args: [shared.mediaId, c] });
    await track(shared, 'en', [[1000, 2000, 'Red lanterns on the quay']]);
    await track(elsewhere, 'en', [[1000, 2000, 'Lanterns nobody assigned']]);
    const noteBy = async (who: { clientUserId: number } | 'studio' | 'internal', text: string) =>
      server.sql.execute({
        sql: `INSERT INTO timeline_notes (media_id, version_id, client_user_id, timestamp_seconds, timestamp_ms, note_text, by_staff, internal, author_name) VALUES (?, ?, ?, 3, 3000, ?, ?, ?, 'Studio')`,
        args: [shared.mediaId, shared.versionId, typeof who === 'object' ? who.clientUserId : null, text, typeof who === 'object' ? 0 : 1, who === 'internal' ? 1 : 0],
      });
    await noteBy(a, 'Lanterns brighter please');
    await noteBy(aSecond, 'Lanterns from the second login');
    await noteBy(b, 'Lanterns the other client wrote');
    await noteBy('studio', 'Lanterns regraded for you');
    await noteBy('internal', 'Lanterns cost too much');
    const portal = await clientSession(server.url, a.username, a.password);
    const r = await portal.json('GET', `/api/client/search?q=${encodeURIComponent('lanterns')}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(texts(r.body.hits).sort()).toEqual(['Lanterns brighter please', 'Lanterns regraded for you', 'Red lanterns on the quay']);
    expect(r.body.hits.every((h: any) => h.mediaId === shared.mediaId)).toBe(true);
    // Staff see every one of them.
    expect(await search('lanterns')).toHaveLength(7);
  });

  test.each([
    ['anonymous', 401],
    ['staff', 401],
  ] as const)('GET /api/client/search as %s: %i', async (who, status) => {
    const s = who === 'staff' ? admin : new Session(server.url);
    const r = await s.json('GET', '/api/client/search?q=lanterns');
    expect(r.status).toBe(status);
    expect(r.body.hits).toBeUndefined();
  });
});

describe('a share link’s guests search what the link shows them', () => {
  let shown: { mediaId: number; versionId: number };
  let link: { id: number; token: string };
  const guestSearch = (guest: Session, q: string) => guest.json('GET', `/api/share/${link.token}/search?q=${encodeURIComponent(q)}`);

  beforeAll(async () => {
    shown = await newFilm('Quayside cut');
    const elsewhere = await newFilm('Not on the link');
    await track(shown, 'en', [[1000, 2000, 'Gulls over the quayside']]);
    await track(elsewhere, 'en', [[1000, 2000, 'Gulls nobody shared']]);
    await note(shown.mediaId, shown.versionId, 3000, 'Gulls louder here');
    await note(shown.mediaId, shown.versionId, 4000, 'Gulls cost too much', true);
    // An earlier cut of the same item: the link shows only the current one.
    const older = await server.sql.execute({
      sql: "INSERT INTO media_versions (media_id, number, storage_key, url, filename, file_size, mime_type) SELECT id, 2, storage_key || '-earlier', url, filename, file_size, mime_type FROM media WHERE id = ? RETURNING id",
      args: [shown.mediaId],
    });
    await note(shown.mediaId, Number(older.rows[0]!.id), 5000, 'Gulls on the earlier cut');
    const made = await expectStatus(admin.json('POST', '/api/share-links', { name: 'For the crew', mediaIds: [shown.mediaId] }), 201);
    link = { id: made.id, token: new URL(made.url).pathname.split('/').pop()! };
  });

  test('its items’ captions and the studio’s notes on the version it shows; never another item, an internal note or another version', async () => {
    const guest = await enterLink(server.url, link.token);
    const r = await guestSearch(guest, 'gulls');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(texts(r.body.hits).sort()).toEqual(['Gulls louder here', 'Gulls over the quayside']);
    expect(r.body.hits.every((h: any) => h.mediaId === shown.mediaId && h.versionId === shown.versionId)).toBe(true);
    // Staff see every one of them.
    expect(await search('gulls')).toHaveLength(5);
  });

  test('before the page is opened: 401; a revoked link: 404; bad input: 400', async () => {
    const stranger = new Session(server.url);
    const before = await guestSearch(stranger, 'gulls');
    expect(before.status).toBe(401);
    expect(before.body.hits).toBeUndefined();
    const guest = await enterLink(server.url, link.token);
    expect((await guestSearch(guest, ' ')).status).toBe(400);
    await expectStatus(admin.json('DELETE', `/api/share-links/${link.id}`));
    const gone = await guestSearch(guest, 'gulls');
    expect(gone.status).toBe(404);
    expect(gone.body.hits).toBeUndefined();
  });
});
