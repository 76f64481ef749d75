// Timeline-note timestamps are bounded on the way in, and the lists survive bad rows that were
// stored before the bounds existed (issue 19, item 3).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithPortalLogin, createImage, createVideo, type ClientLogin, type MediaFixture } from '../helpers/portal-fixtures.ts';

let server: TestServer;
let alice: ClientLogin;
let s: Session;
let admin: Session;
let tenSeconds: MediaFixture;
let unknownLength: MediaFixture;
let picture: MediaFixture;

beforeAll(async () => {
  // No worker: its probe of the sample file (3 s) would overwrite the 10 s these rows claim,
  // whenever it happened to run (it did, once, on the sqld project).
  server = await startServer({ env: { WORKER: 'off' } });
  alice = await createClientWithPortalLogin(server, 'Alice');
  tenSeconds = await createVideo(server, { title: 'Ten seconds', clientId: alice.clientId, durationSeconds: 10 });
  unknownLength = await createVideo(server, { title: 'Unknown length', clientId: alice.clientId, durationSeconds: null });
  picture = await createImage(server, { title: 'Picture', clientId: alice.clientId });
  s = await clientSession(server.url, alice.username, alice.password);
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
});
afterAll(() => server?.stop());

/** Posts the body text as written, so numbers beyond double precision reach the server intact. */
async function postRaw(mediaId: number, timestamp: string) {
  const res = await s.request('POST', `/api/client/media/${mediaId}/timeline-notes`, `{"mediaId":${mediaId},"timestampSeconds":${timestamp},"noteText":"n"}`, {
    'Content-Type': 'application/json',
  });
  return { status: res.status, body: await res.json() };
}

const count = async () => Number((await server.sql.execute('SELECT COUNT(*) AS n FROM timeline_notes')).rows[0]!.n);

describe('POST /api/client/media/{id}/timeline-notes bounds', () => {
  test.each([
    ['a huge integer on a video of unknown length', () => unknownLength, '9007199254740993', /timestampSeconds/],
    ['1e308 on a video of unknown length', () => unknownLength, '1e308', /timestampSeconds/],
    ['just over 24 hours on a video of unknown length', () => unknownLength, '86401', /timestampSeconds/],
    ['a huge integer on a 10-second video', () => tenSeconds, '9007199254740993', /timestampSeconds/],
    // Issue 29: an image takes notes (drawings on the picture), at 0 only.
    ['a timestamp other than 0 on an image', () => picture, '1', /^timestampSeconds: .*image has no time/],
    ['a huge integer on an image', () => picture, '9007199254740993', /timestampSeconds/],
  ])('%s → 400, nothing stored', async (_label, pick, ts, message) => {
    const before = await count();
    const res = await postRaw(pick().id, ts);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect(await count()).toBe(before);
  });

  test.each([
    ['24 hours exactly on a video of unknown length', () => unknownLength, '86400', 86400],
    ['the last second of a 10-second video', () => tenSeconds, '10', 10],
  ])('%s is accepted', async (_label, pick, ts, stored) => {
    const res = await postRaw(pick().id, ts);
    expect(res.status).toBe(201);
    expect(res.body.timestampSeconds).toBe(stored);
  });
});

test('bad rows already stored do not break the client and staff lists; the other notes still show', async () => {
  const good = await postRaw(tenSeconds.id, '3');
  expect(good.status).toBe(201);
  const insert = (mediaId: number, ts: string) =>
    server.sql.execute({
      sql: `INSERT INTO timeline_notes (media_id, client_user_id, timestamp_seconds, note_text, created_at) VALUES (?, ?, ${ts}, 'bad', ?)`,
      args: [mediaId, alice.clientUserId, Date.now()],
    });
  await insert(picture.id, '9007199254740993');
  await insert(unknownLength.id, '1e308');
  await insert(tenSeconds.id, '9007199254740993');

  const mine = await s.json('GET', '/api/client/media/timeline-notes');
  expect(mine.status).toBe(200);
  expect(mine.body).toContainEqual(expect.objectContaining({ id: good.body.id, timestampSeconds: 3 }));
  for (const n of mine.body) expect(Number.isSafeInteger(n.timestampSeconds)).toBe(true);
  const clamped = mine.body.find((n: any) => n.mediaId === tenSeconds.id && n.noteText === 'bad');
  expect(clamped.timestampSeconds).toBe(10);

  for (const path of ['/api/admin/media/timeline-notes', `/api/admin/media/timeline-notes?mediaId=${tenSeconds.id}`]) {
    const staff = await admin.json('GET', path);
    expect(staff.status, path).toBe(200);
    expect(staff.body).toContainEqual(expect.objectContaining({ id: good.body.id, timestampSeconds: 3 }));
    for (const n of staff.body) expect(Number.isSafeInteger(n.timestampSeconds) && n.timestampSeconds >= 0).toBe(true);
  }
});
