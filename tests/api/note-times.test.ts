// Issue 29, the data and API part: exact note times beside the documented whole seconds, range
// ends, drawings validated by the shared schema, staff notes with an internal switch (never shown
// to clients or link visitors, never in their emails), and share-link comments in the staff
// thread, answered and resolved by staff (never by a client of another item).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin, createStaffUser } from '../helpers/accounts.ts';
import { createVideo, type MediaFixture } from '../helpers/portal-fixtures.ts';
import { Mailbox } from '../helpers/mailbox.ts';
import { until } from '../helpers/until.ts';

const mailbox = new Mailbox();
let server: TestServer;
let admin: Session;
let viewer: Session; // view:media only
let portal: Session;
let other: Session; // a client of another item
let clientId: number;
let film: MediaFixture; // 20 s, assigned to `portal`'s client
let otherFilm: MediaFixture;
let link: { id: number; token: string };
let guest: Session;

beforeAll(async () => {
  await mailbox.listen();
  server = await startServer({ env: { SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`, NOTIFY_POLL_MS: '100', SITE_URL: 'https://studio.example' } });
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const v = await createStaffUser(server, { permissions: ['view:media'] });
  viewer = await staffSession(server.url, v.username, v.password);
  const c = await createClientWithLogin(server, { name: 'Harbour Films' });
  clientId = c.clientId;
  const o = await createClientWithLogin(server, { name: 'Other Co' });
  portal = await clientSession(server.url, c.username, c.password);
  other = await clientSession(server.url, o.username, o.password);
  film = await createVideo(server, { title: 'Harbour Film', clientId: c.clientId, durationSeconds: 20 });
  otherFilm = await createVideo(server, { title: 'Other Film', clientId: o.clientId, durationSeconds: 20 });
  const r = await admin.json('POST', '/api/share-links', { name: 'For the agency', mediaIds: [film.id], allowComment: true });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  link = { id: r.body.id, token: new URL(r.body.url).pathname.split('/').pop()! };
  guest = new Session(server.url);
  expect((await guest.get(`/s/${link.token}`)).status).toBe(200);
  expect((await guest.json('PUT', `/api/share/${link.token}/name`, { name: 'Sam Guest' })).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await mailbox.close();
});

const clientNote = (body: Record<string, unknown>) => portal.json('POST', `/api/client/media/${film.id}/timeline-notes`, { mediaId: film.id, noteText: 'n', ...body });
const guestNote = (body: Record<string, unknown>) => guest.json('POST', `/api/share/${link.token}/media/${film.id}/timeline-notes`, { text: 'g', ...body });
const staffNote = (body: Record<string, unknown>, s: Session = viewer) => s.json('POST', `/api/media/${film.id}/timeline-notes`, { text: 's', ...body });
const adminNotes = async () => (await admin.json('GET', `/api/admin/media/timeline-notes?mediaId=${film.id}`)).body as any[];
const row = async (table: string, id: number) => (await server.sql.execute({ sql: `SELECT timestamp_seconds, timestamp_ms, end_ms, shapes FROM ${table} WHERE id = ?`, args: [id] })).rows[0]!;

describe('exact times', () => {
  test.each([
    ['client', clientNote, 'timeline_notes'],
    ['link visitor', guestNote, 'share_comments'],
    ['staff', staffNote, 'timeline_notes'],
  ] as const)('%s: 3640 ms → 3 s and 3640 ms; both sent → ms wins; only seconds → seconds × 1000', async (_who, post, table) => {
    const a = await post({ timestampMs: 3640 });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body).toMatchObject({ timestampSeconds: 3, timestampMs: 3640, endMs: null, shapes: [] });
    expect(await row(table, a.body.id)).toMatchObject({ timestamp_seconds: 3, timestamp_ms: 3640 });

    const b = await post({ timestampSeconds: 9, timestampMs: 4250 });
    expect(b.body).toMatchObject({ timestampSeconds: 4, timestampMs: 4250 });
    expect(await row(table, b.body.id)).toMatchObject({ timestamp_seconds: 4, timestamp_ms: 4250 });

    const c = await post({ timestampSeconds: 7.9 });
    expect(c.body).toMatchObject({ timestampSeconds: 7, timestampMs: 7000 });

    // Read back the same way in every list.
    const listed = (await adminNotes()).find((n) => n.id === a.body.id && n.source === (table === 'share_comments' ? 'link' : _who === 'staff' ? 'staff' : 'client'));
    expect(listed).toMatchObject({ timestampSeconds: 3, timestampMs: 3640 });
  });

  test('clients, link visitors and staff lists carry timestampMs, endMs and shapes', async () => {
    const shapes = [{ kind: 'arrow', color: 'red', points: [[0.1, 0.2], [0.5, 0.5]] }];
    const c = await clientNote({ timestampMs: 12345, endMs: 15000, shapes });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect(c.body).toMatchObject({ timestampSeconds: 12, timestampMs: 12345, endMs: 15000, shapes });
    const own = (await portal.json('GET', '/api/client/media/timeline-notes')).body.find((n: any) => n.id === c.body.id);
    expect(own).toMatchObject({ source: 'client', timestampSeconds: 12, timestampMs: 12345, endMs: 15000, shapes });
    expect((await adminNotes()).find((n) => n.id === c.body.id && n.source === 'client')).toMatchObject({ timestampMs: 12345, endMs: 15000, shapes, guest: false });

    const g = await guestNote({ timestampMs: 1500, endMs: 2500, shapes });
    expect(g.status, JSON.stringify(g.body)).toBe(201);
    const view = (await guest.json('GET', `/api/share/${link.token}`)).body;
    expect(view.comments.find((x: any) => x.id === g.body.id && x.source === 'link')).toMatchObject({ timestampSeconds: 1, timestampMs: 1500, endMs: 2500, shapes });
    const staffList = (await admin.json('GET', `/api/media/${film.id}/share-comments`)).body;
    expect(staffList.find((x: any) => x.id === g.body.id)).toMatchObject({ timestampMs: 1500, endMs: 2500, shapes, linkName: 'For the agency' });
  });

  test.each([
    ['end before the start', { timestampMs: 5000, endMs: 5000 }, /^endMs: /],
    ['end beyond the video', { timestampMs: 5000, endMs: 21_000 }, /^endMs: .*end of the video/],
    ['start beyond the video (ms)', { timestampMs: 21_000 }, /^timestampMs: .*end of the video/],
    ['start beyond the video (seconds)', { timestampSeconds: 21 }, /^timestampSeconds: .*end of the video/],
    ['no time at all', {}, /^timestampSeconds: /],
    ['a fraction of a millisecond', { timestampMs: 10.5 }, /^timestampMs: /],
    ['a negative time', { timestampMs: -1 }, /^timestampMs: /],
    ['a time as a string', { timestampMs: '3640' }, /^timestampMs: /],
  ])('%s → 400 naming the field, for clients, visitors and staff', async (_label, body, message) => {
    for (const post of [clientNote, guestNote, staffNote]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
  });
});

describe('drawings', () => {
  const pt = (n: number) => Array.from({ length: n }, (_, i) => [(i % 100) / 100, 0.5]);
  const ok = { kind: 'freehand', color: 'blue', points: [[0, 0], [1, 1]] };
  const cases: [string, unknown, RegExp][] = [
    ['an unknown kind', [{ ...ok, kind: 'star' }], /^shapes\.0\.kind: /],
    ['an unknown colour', [{ ...ok, color: 'magenta' }], /^shapes\.0\.color: /],
    ['a coordinate above 1', [ok, ok, ok, { ...ok, points: [...pt(12), [0.5, 1.01]] }], /^shapes\.3\.points\.12\.1: /],
    ['a coordinate below 0', [{ ...ok, points: [[-0.1, 0.5]] }], /^shapes\.0\.points\.0\.0: /],
    ['a NaN-like string', [{ ...ok, points: [['NaN', 0.5]] }], /^shapes\.0\.points\.0\.0: /],
    ['an Infinity-like string', [{ ...ok, points: [[0.5, 'Infinity']] }], /^shapes\.0\.points\.0\.1: /],
    ['a huge number', [{ ...ok, points: [[1e308, 0.5]] }], /^shapes\.0\.points\.0\.0: /],
    ['a point with three numbers', [{ ...ok, points: [[0.1, 0.2, 0.3]] }], /^shapes\.0\.points\.0: /],
    ['a point that is not a list', [{ ...ok, points: [{ x: 0.1, y: 0.2 }] }], /^shapes\.0\.points\.0: /],
    ['a shape without points', [{ ...ok, points: [] }], /^shapes\.0\.points: /],
    ['an arrow with three points', [{ ...ok, kind: 'arrow', points: pt(3) }], /^shapes\.0\.points: /],
    ['an unknown field on a shape', [{ ...ok, label: 'x' }], /^shapes\.0: /],
    ['too many points in one shape', [{ ...ok, points: pt(2001) }], /^shapes\.0\.points: .*2000/],
    ['too many points in all shapes together', Array.from({ length: 3 }, () => ({ ...ok, points: pt(700) })), /^shapes: .*2000/],
    ['too many shapes', Array.from({ length: 51 }, () => ok), /^shapes: .*50/],
    ['shapes that are not a list', { kind: 'arrow' }, /^shapes: /],
  ];
  test.each(cases)('%s → 400 naming the field, nothing stored', async (_label, shapes, message) => {
    const count = async () => Number((await server.sql.execute('SELECT (SELECT count(*) FROM timeline_notes) + (SELECT count(*) FROM share_comments) AS n')).rows[0]!.n);
    const before = await count();
    for (const post of [clientNote, guestNote, staffNote]) {
      const res = await post({ timestampMs: 1000, shapes });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect(await count()).toBe(before);
  });

  test('the limits themselves are accepted: 50 shapes, 2,000 points, corners 0 and 1, every kind and colour', async () => {
    const kinds = ['freehand', 'arrow', 'rect', 'ellipse'];
    const colors = ['red', 'orange', 'yellow', 'green', 'blue', 'white'];
    const shapes = Array.from({ length: 50 }, (_, i) => ({
      kind: kinds[i % 4],
      color: colors[i % 6],
      points: i % 4 === 0 ? pt(i === 0 ? 1902 : 2) : [[0, 0], [1, 1]],
    }));
    expect(shapes.reduce((n, s) => n + s.points.length, 0)).toBe(2000);
    const res = await clientNote({ timestampMs: 1000, shapes });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    expect(res.body.shapes).toEqual(shapes);
    expect(JSON.parse(String((await row('timeline_notes', res.body.id)).shapes))).toEqual(shapes);
  });
});

describe('staff notes and the internal switch', () => {
  let internalId: number;
  let sharedId: number;
  const INTERNAL = 'Internal: the grade is off, do not tell the client yet';
  const SHARED = 'Studio: we tightened this cut';

  beforeAll(async () => {
    const i = await staffNote({ timestampMs: 2500, text: INTERNAL, internal: true });
    expect(i.status, JSON.stringify(i.body)).toBe(201);
    expect(i.body).toMatchObject({ source: 'staff', internal: true, timestampSeconds: 2, timestampMs: 2500 });
    internalId = i.body.id;
    const s = await staffNote({ timestampMs: 3500, text: SHARED });
    expect(s.body).toMatchObject({ source: 'staff', internal: false });
    sharedId = s.body.id;
  });

  test('staff see both in their list, marked as staff notes', async () => {
    const list = await adminNotes();
    expect(list.find((n) => n.id === internalId && n.source === 'staff')).toMatchObject({ internal: true, noteText: INTERNAL, clientUserId: null });
    expect(list.find((n) => n.id === sharedId && n.source === 'staff')).toMatchObject({ internal: false, noteText: SHARED });
  });

  test('clients see the shared one, never the internal one', async () => {
    const body = JSON.stringify((await portal.json('GET', '/api/client/media/timeline-notes')).body);
    expect(body).toContain(SHARED);
    expect(body).not.toContain(INTERNAL);
    // Nor can they answer it; they may answer the shared one.
    expect((await portal.json('POST', `/api/client/media/timeline-notes/${internalId}/replies`, { text: 'hi' })).status).toBe(404);
    expect((await portal.json('POST', `/api/client/media/timeline-notes/${sharedId}/replies`, { text: 'Thanks' })).status).toBe(201);
    // A client of another item sees neither.
    const others = JSON.stringify((await other.json('GET', '/api/client/media/timeline-notes')).body);
    expect(others).not.toContain(SHARED);
    expect(others).not.toContain(INTERNAL);
    expect((await other.json('POST', `/api/client/media/timeline-notes/${sharedId}/replies`, { text: 'x' })).status).toBe(404);
  });

  test('link visitors see the shared one, never the internal one', async () => {
    const body = JSON.stringify((await guest.json('GET', `/api/share/${link.token}`)).body);
    expect(body).toContain(SHARED);
    expect(body).not.toContain(INTERNAL);
    // The staff list of link comments is link comments only.
    expect(JSON.stringify((await admin.json('GET', `/api/media/${film.id}/share-comments`)).body)).not.toContain(SHARED);
  });

  test('no email carries a staff note; the client still gets their own mail', async () => {
    // A later event that mails the client: anything queued before it has been sent by then.
    const item = await createVideo(server, { title: 'Later Film' });
    expect((await admin.json('POST', `/api/media/${item.id}/clients/${clientId}`)).status).toBe(201);
    const login = String((await server.sql.execute({ sql: 'SELECT email FROM client_users WHERE client_id = ?', args: [clientId] })).rows[0]!.email);
    await until('the assignment email', async () => mailbox.received.some((m) => m.rcptTo.includes(login) && m.raw.includes('Later Film')) || null, 15_000);
    const all = mailbox.received.map((m) => m.raw).join('\n');
    expect(all).not.toContain('grade is off');
    expect(all).not.toContain('tightened');
  });

  test('staff notes need view:media, a video, and a version of this item', async () => {
    expect((await portal.json('POST', `/api/media/${film.id}/timeline-notes`, { text: 'x', timestampMs: 1 })).status).toBe(401);
    expect((await staffNote({ timestampMs: 1000, versionId: 999_999 })).body.message).toMatch(/^versionId: /);
    expect((await staffNote({ timestampMs: 1000, internal: 'yes' })).body.message).toMatch(/^internal: /);
    expect((await viewer.json('POST', `/api/media/999999/timeline-notes`, { text: 'x', timestampMs: 1 })).status).toBe(404);
  });
});

describe('one thread: share-link comments answered and resolved by staff', () => {
  test('a guest note and guest feedback appear in the staff lists, marked as guests', async () => {
    const n = await guestNote({ timestampMs: 6000, text: 'Guest: logo too small' });
    const f = await guest.json('POST', `/api/share/${link.token}/media/${film.id}/feedback`, { text: 'Guest: lovely', rating: 4 });
    expect(f.status).toBe(201);
    expect((await adminNotes()).find((x) => x.id === n.body.id && x.source === 'link')).toMatchObject({
      guest: true,
      guestName: 'Sam Guest',
      clientUsername: 'Sam Guest',
      linkName: 'For the agency',
      noteText: 'Guest: logo too small',
      clientUserId: null,
      internal: false,
    });
    const fb = (await admin.json('GET', `/api/admin/media/feedback?mediaId=${film.id}`)).body as any[];
    expect(fb.find((x) => x.id === f.body.id && x.source === 'link')).toMatchObject({ guest: true, guestName: 'Sam Guest', feedbackText: 'Guest: lovely', rating: 4 });
  });

  test('staff reply to and resolve them with source "link"; the ids of client notes are not touched', async () => {
    // A client note and a guest note, possibly with the same id number.
    const c = await clientNote({ timestampMs: 8000, noteText: 'Client note' });
    const g = await guestNote({ timestampMs: 8000, text: 'Guest note' });
    const gid = 500_000; // the same id for both: a client note's and a guest note's
    await server.sql.execute({ sql: 'UPDATE timeline_notes SET id = ? WHERE id = ?', args: [gid, c.body.id] });
    await server.sql.execute({ sql: 'UPDATE share_comments SET id = ? WHERE id = ?', args: [gid, g.body.id] });

    const reply = await viewer.json('POST', `/api/admin/media/timeline-notes/${gid}/replies`, { text: 'On it', source: 'link' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toMatchObject({ by: 'staff', text: 'On it' });
    const resolved = await admin.json('PUT', `/api/admin/media/timeline-notes/${gid}/resolved`, { resolved: true, source: 'link' });
    expect(resolved.status).toBe(200);
    expect(resolved.body.resolvedAt).toBeTruthy();
    // view:media alone cannot resolve (edit:media), as for a client's note.
    expect((await viewer.json('PUT', `/api/admin/media/timeline-notes/${gid}/resolved`, { resolved: false, source: 'link' })).status).toBe(403);

    const list = await adminNotes();
    const guestRow = list.find((x) => x.id === gid && x.source === 'link');
    const clientRow = list.find((x) => x.id === gid && x.source === 'client');
    expect(guestRow).toMatchObject({ noteText: 'Guest note', resolvedAt: expect.any(String), replies: [expect.objectContaining({ text: 'On it' })] });
    expect(clientRow).toMatchObject({ noteText: 'Client note', resolvedAt: null, replies: [] });
    // The link visitor sees it resolved.
    expect((await guest.json('GET', `/api/share/${link.token}`)).body.comments.find((x: any) => x.id === gid && x.source === 'link')).toMatchObject({ resolvedAt: expect.any(String) });
    // Reopen.
    expect((await admin.json('PUT', `/api/admin/media/timeline-notes/${gid}/resolved`, { resolved: false, source: 'link' })).body.resolvedAt).toBeNull();
  });

  test('staff answer guest feedback with source "link"', async () => {
    const f = await guest.json('POST', `/api/share/${link.token}/media/${film.id}/feedback`, { text: 'Guest feedback two', rating: 3 });
    const r = await viewer.json('POST', `/api/admin/media/feedback/${f.body.id}/replies`, { text: 'Noted', source: 'link' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const fb = (await admin.json('GET', `/api/admin/media/feedback?mediaId=${film.id}`)).body as any[];
    expect(fb.find((x) => x.id === f.body.id && x.source === 'link').replies).toEqual([expect.objectContaining({ text: 'Noted', by: 'staff' })]);
    expect((await viewer.json('POST', `/api/admin/media/feedback/999999/replies`, { text: 'x', source: 'link' })).status).toBe(404);
    expect((await viewer.json('POST', `/api/admin/media/feedback/${f.body.id}/replies`, { text: 'x', source: 'guest' })).body.message).toMatch(/^source: /);
  });

  test('a client of another item cannot answer, resolve or see guest comments', async () => {
    const g = await guestNote({ timestampMs: 9000, text: 'Guest private note' });
    const n = await other.json('POST', `/api/client/media/timeline-notes/${g.body.id}/replies`, { text: 'x', source: 'link' });
    expect(n.status).toBe(400); // clients have no source field
    expect((await other.json('PUT', `/api/admin/media/timeline-notes/${g.body.id}/resolved`, { resolved: true, source: 'link' })).status).toBe(401);
    expect((await other.json('POST', `/api/admin/media/timeline-notes/${g.body.id}/replies`, { text: 'x', source: 'link' })).status).toBe(401);
    expect(JSON.stringify((await other.json('GET', '/api/client/media/timeline-notes')).body)).not.toContain('Guest private note');
    expect(JSON.stringify((await portal.json('GET', '/api/client/media/timeline-notes')).body)).not.toContain('Guest private note');
    expect(otherFilm.id).toBeGreaterThan(0);
  });
});
