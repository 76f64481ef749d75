// Drawings on notes (issue 29), what note-times.test.ts leaves out: the shape rules it does not
// name (a rectangle or ellipse needs exactly two corners, kind and colour are required, `null`
// means none), for clients, link visitors and staff alike; and notes on images, which the drawing
// tools need: accepted at 0 with their shapes, refused at any other time or with a range.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin } from '../helpers/accounts.ts';
import { createImage, createVideo, type MediaFixture } from '../helpers/portal-fixtures.ts';

let server: TestServer;
let admin: Session;
let portal: Session;
let guest: Session;
let film: MediaFixture;
let photo: MediaFixture;
let token: string;

beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const c = await createClientWithLogin(server, { name: 'Drawing Films' });
  portal = await clientSession(server.url, c.username, c.password);
  film = await createVideo(server, { title: 'Drawn Film', clientId: c.clientId, durationSeconds: 20 });
  photo = await createImage(server, { title: 'Drawn Still', clientId: c.clientId });
  const r = await admin.json('POST', '/api/share-links', { name: 'Drawings link', mediaIds: [film.id, photo.id], allowComment: true });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  token = new URL(r.body.url).pathname.split('/').pop()!;
  guest = new Session(server.url);
  expect((await guest.get(`/s/${token}`)).status).toBe(200);
  expect((await guest.json('PUT', `/api/share/${token}/name`, { name: 'Dee Guest' })).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

type Post = (mediaId: number, body: Record<string, unknown>) => Promise<{ status: number; body: any }>;
const writers: [string, Post, string][] = [
  ['client', (id, body) => portal.json('POST', `/api/client/media/${id}/timeline-notes`, { mediaId: id, noteText: 'n', ...body }), 'timeline_notes'],
  ['link visitor', (id, body) => guest.json('POST', `/api/share/${token}/media/${id}/timeline-notes`, { text: 'g', ...body }), 'share_comments'],
  ['staff', (id, body) => admin.json('POST', `/api/media/${id}/timeline-notes`, { text: 's', ...body }), 'timeline_notes'],
];
const count = async () => Number((await server.sql.execute('SELECT (SELECT count(*) FROM timeline_notes) + (SELECT count(*) FROM share_comments) AS n')).rows[0]!.n);

describe('shape rules not covered elsewhere', () => {
  const cases: [string, unknown, RegExp][] = [
    ['a rectangle with one corner', [{ kind: 'rect', color: 'red', points: [[0.1, 0.1]] }], /^shapes\.0\.points: .*exactly 2/],
    ['an ellipse with three points', [{ kind: 'ellipse', color: 'red', points: [[0.1, 0.1], [0.2, 0.2], [0.3, 0.3]] }], /^shapes\.0\.points: .*exactly 2/],
    ['an arrow with one point', [{ kind: 'arrow', color: 'green', points: [[0.5, 0.5]] }], /^shapes\.0\.points: .*exactly 2/],
    ['a shape without a kind', [{ color: 'red', points: [[0.1, 0.1]] }], /^shapes\.0\.kind: /],
    ['a shape without a colour', [{ kind: 'freehand', points: [[0.1, 0.1]] }], /^shapes\.0\.color: /],
    ['a shape without points', [{ kind: 'freehand', color: 'red' }], /^shapes\.0\.points: /],
    ['a shape that is not an object', ['arrow'], /^shapes\.0: /],
    ['a colour in another case', [{ kind: 'rect', color: 'Red', points: [[0, 0], [1, 1]] }], /^shapes\.0\.color: /],
  ];
  test.each(cases)('%s → 400 naming the field, nothing stored', async (_label, shapes, message) => {
    const before = await count();
    for (const [who, post] of writers) {
      const res = await post(film.id, { timestampMs: 1000, shapes });
      expect(res.status, `${who}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.message, who).toMatch(message);
    }
    expect(await count()).toBe(before);
  });

  test('shapes null is a note without a drawing', async () => {
    for (const [who, post] of writers) {
      const res = await post(film.id, { timestampMs: 1000, shapes: null });
      expect(res.status, `${who}: ${JSON.stringify(res.body)}`).toBe(201);
      expect(res.body.shapes, who).toEqual([]);
    }
  });
});

describe('notes on images (drawings on the picture)', () => {
  const shapes = [
    { kind: 'arrow', color: 'yellow', points: [[0.25, 0.25], [0.75, 0.75]] },
    { kind: 'rect', color: 'white', points: [[0.1, 0.2], [0.3, 0.4]] },
  ];

  test.each(writers)('%s: a note at 0 on an image is stored with its shapes and listed', async (_who, post, table) => {
    const res = await post(photo.id, { timestampMs: 0, shapes });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ timestampMs: 0, timestampSeconds: 0, endMs: null, shapes });
    const stored = (await server.sql.execute({ sql: `SELECT shapes, media_id FROM ${table} WHERE id = ?`, args: [res.body.id] })).rows[0]!;
    expect(Number(stored.media_id)).toBe(photo.id);
    expect(JSON.parse(String(stored.shapes))).toEqual(shapes);
    const staffList = (await admin.json('GET', `/api/admin/media/timeline-notes?mediaId=${photo.id}`)).body as any[];
    expect(staffList.find((n) => n.id === res.body.id)).toMatchObject({ shapes });
  });

  test.each(writers)('%s: an image note at another time, or with a range, is 400 naming the field', async (_who, post) => {
    const before = await count();
    for (const [body, message] of [
      [{ timestampMs: 1500 }, /^timestampMs: .*image/],
      [{ timestampSeconds: 2 }, /^timestampSeconds: .*image/],
      [{ timestampMs: 0, endMs: 1000 }, /^endMs: .*image/],
    ] as const) {
      const res = await post(photo.id, { ...body, shapes });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect(await count()).toBe(before);
  });
});
