// Live updates (issue 41): one event stream per tab. Each event type reaches exactly the
// principals allowed to see it (staff roles, clients, link kinds), decided when it is sent:
// with the streams open, a client unassigned, a permission removed, a link revoked, a sign-out,
// a password change or a deactivated client take effect on the next event (or close the stream
// at once). A tab that reconnects with Last-Event-ID gets what it missed without repeats or
// gaps, also right after pruning; too many streams answer 429.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin, createStaffUser } from '../helpers/accounts.ts';
import { createVideo, type MediaFixture } from '../helpers/portal-fixtures.ts';
import { EventStream, openStream, type SseMessage } from '../helpers/sse.ts';
import { createGallery, galleryLink, uploadShots } from '../helpers/proofing.ts';
import { hashPassword } from '../../src/server/auth/password.ts';

let server: TestServer;
let admin: Session;
let viewer: Session; // view:media only
let viewerUser: { id: string; roleId: number };
let sharerOnly: Session; // share:media without view:media
let sharerOnlyUser: { id: string };
let clientA: Session; // film assigned to A (through media_clients)
let clientA2: Session; // a second login of client A
let clientB: Session; // otherFilm
let clientAId: number;
let film: MediaFixture;
let spare: MediaFixture; // also A's, for a barrier while film is unassigned
let otherFilm: MediaFixture;
type Link = { id: number; token: string };
let commentLink: Link;
let plainLink: Link;
let markedLink: Link;
let otherLink: Link;
const guests: Record<string, Session> = {};
const streams: Record<string, EventStream> = {};

const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;

async function makeLink(mediaIds: number[], extra: Record<string, unknown>): Promise<Link> {
  const r = await admin.json('POST', '/api/share-links', { name: `Link ${Math.random()}`, mediaIds, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { id: r.body.id, token: tokenOf(r.body.url) };
}

async function guestOf(link: Link, name: string): Promise<Session> {
  const g = new Session(server.url);
  expect((await g.get(`/s/${link.token}`)).status).toBe(200);
  expect((await g.json('PUT', `/api/share/${link.token}/name`, { name })).status).toBe(200);
  return g;
}

const WHO = ['admin', 'viewer', 'sharerOnly', 'clientA', 'clientA2', 'clientB', 'commentLink', 'plainLink', 'markedLink', 'otherLink'] as const;
type Who = (typeof WHO)[number];

beforeAll(async () => {
  server = await startServer({ env: { LIVE_STREAMS_PER_USER: '5', LIVE_STREAMS_PER_ADDRESS: '20' } });
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const v = await createStaffUser(server, { permissions: ['view:media'] });
  viewerUser = v;
  viewer = await staffSession(server.url, v.username, v.password);
  const s = await createStaffUser(server, { permissions: ['share:media'] });
  sharerOnlyUser = s;
  sharerOnly = await staffSession(server.url, s.username, s.password);
  const a = await createClientWithLogin(server, { name: 'Harbour Films' });
  clientAId = a.clientId;
  clientA = await clientSession(server.url, a.username, a.password);
  await server.sql.execute({
    sql: 'INSERT INTO client_users (client_id, username, email, password_hash) VALUES (?, ?, ?, ?)',
    args: [a.clientId, `${a.username}.two`, `two.${a.email}`, await hashPassword('client-pass-456')],
  });
  clientA2 = await clientSession(server.url, `${a.username}.two`, 'client-pass-456');
  const b = await createClientWithLogin(server, { name: 'Other Co' });
  clientB = await clientSession(server.url, b.username, b.password);
  film = await createVideo(server, { title: 'Harbour Film', assign: [a.clientId], durationSeconds: 20 });
  spare = await createVideo(server, { title: 'Spare', assign: [a.clientId], durationSeconds: 20 });
  otherFilm = await createVideo(server, { title: 'Other Film', clientId: b.clientId, durationSeconds: 20 });
  commentLink = await makeLink([film.id], { allowComment: true, allowApprove: true });
  plainLink = await makeLink([film.id], {});
  markedLink = await makeLink([film.id], { watermark: true, download: 'preview' });
  otherLink = await makeLink([otherFilm.id], { allowComment: true });
  guests.commentLink = await guestOf(commentLink, 'Sam Guest');
  guests.plainLink = await guestOf(plainLink, 'Pat Plain');
  guests.markedLink = await guestOf(markedLink, 'Mo Marked');
  guests.otherLink = await guestOf(otherLink, 'Oz Other');
  const sessions: Record<Who, [Session, string]> = {
    admin: [admin, '/api/live/stream?as=staff'],
    viewer: [viewer, '/api/live/stream?as=staff'],
    sharerOnly: [sharerOnly, '/api/live/stream?as=staff'],
    clientA: [clientA, '/api/live/stream?as=client'],
    clientA2: [clientA2, '/api/live/stream?as=client'],
    clientB: [clientB, '/api/live/stream?as=client'],
    commentLink: [guests.commentLink!, `/api/share/${commentLink.token}/live`],
    plainLink: [guests.plainLink!, `/api/share/${plainLink.token}/live`],
    markedLink: [guests.markedLink!, `/api/share/${markedLink.token}/live`],
    otherLink: [guests.otherLink!, `/api/share/${otherLink.token}/live`],
  };
  for (const who of WHO) streams[who] = await openStream(sessions[who][0], sessions[who][1]);
}, 120_000);

afterAll(async () => {
  for (const s of Object.values(streams)) s.close();
  await server?.stop();
});

/** Every stream's message count now: what each receives after an action is counted from here. */
const marks = () => Object.fromEntries(WHO.map((w) => [w, streams[w]!.messages.length])) as Record<Who, number>;

/**
 * Something every open stream receives after whatever was done before it (each stream gets
 * events in the table's order): a title change of film and of otherFilm, and a bell marker for
 * staff who see no item. Once each stream has its barrier, it has had its chance at earlier events.
 */
async function barrier(from: Record<Who, number>, who: readonly Who[] = WHO) {
  const stamp = `${Date.now()}`;
  for (const item of [film, otherFilm, spare]) {
    const r = await admin.json('PUT', `/api/media/${item.id}`, { notes: `barrier ${stamp}` });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  await server.sql.execute({ sql: 'UPDATE users SET bell_seen_id = bell_seen_id + 1 WHERE id = ?', args: [sharerOnlyUser.id] });
  const media = (id: number) => (m: SseMessage) => m.event === 'media' && m.data.mediaId === id;
  const sees: Record<Who, (m: SseMessage) => boolean> = {
    admin: media(otherFilm.id),
    viewer: media(otherFilm.id),
    sharerOnly: (m) => m.event === 'bell',
    clientA: media(spare.id),
    clientA2: media(spare.id),
    clientB: media(otherFilm.id),
    commentLink: media(film.id),
    plainLink: media(film.id),
    markedLink: media(film.id),
    otherLink: media(otherFilm.id),
  };
  await Promise.all(who.filter((w) => !streams[w]!.ended).map((w) => streams[w]!.waitFor(`${w}'s barrier`, sees[w], from[w])));
}

/** Who received a message of `topic` about film (or `mediaId`) since `from`. */
function receivers(from: Record<Who, number>, topic: string, pick: (m: SseMessage) => boolean = (m) => m.data.mediaId === film.id, who: readonly Who[] = WHO): Who[] {
  return who.filter((w) => streams[w]!.messages.slice(from[w]).some((m) => m.event === topic && pick(m)));
}

const ITEM_AUDIENCE: Who[] = ['admin', 'viewer', 'clientA', 'clientA2', 'commentLink', 'plainLink', 'markedLink'];
const staffNote = (body: Record<string, unknown>) => viewer.json('POST', `/api/media/${film.id}/timeline-notes`, { text: 'staff', timestampMs: 1000, ...body });

describe('each event type reaches exactly the principals allowed', () => {
  const cases: [string, () => Promise<unknown>, string, Who[]][] = [
    ['an internal staff note', () => staffNote({ internal: true }), 'note', ['admin', 'viewer']],
    ['a shared staff note', () => staffNote({}), 'note', ITEM_AUDIENCE],
    [
      "a client's note (their own: not the other login of the same client)",
      () => clientA.json('POST', `/api/client/media/${film.id}/timeline-notes`, { mediaId: film.id, noteText: 'client', timestampMs: 2000 }),
      'note',
      ['admin', 'viewer', 'clientA'],
    ],
    [
      "a client's feedback",
      () => clientA.json('POST', `/api/client/media/${film.id}/feedback`, { mediaId: film.id, feedbackText: 'Lovely', rating: 4 }),
      'feedback',
      ['admin', 'viewer', 'clientA'],
    ],
    [
      "a link visitor's note (their link only)",
      () => guests.commentLink!.json('POST', `/api/share/${commentLink.token}/media/${film.id}/timeline-notes`, { text: 'guest', timestampMs: 3000 }),
      'note',
      ['admin', 'viewer', 'commentLink'],
    ],
    ['an approval through a link', () => guests.commentLink!.json('PUT', `/api/share/${commentLink.token}/media/${film.id}/approval`, { status: 'approved', note: '', version: 1 }), 'approval', ITEM_AUDIENCE],
    [
      'a lock by staff',
      async () => {
        const v = await server.sql.execute({ sql: 'SELECT id FROM media_versions WHERE media_id = ?', args: [film.id] });
        return admin.json('PUT', `/api/media/${film.id}/versions/${v.rows[0]!.id}/lock`, { locked: true });
      },
      'approval',
      ITEM_AUDIENCE,
    ],
    [
      'processing progress (the worker writes it)',
      () => server.sql.execute({ sql: "UPDATE media_versions SET processing_status = 'processing', processing_progress = 42 WHERE media_id = ?", args: [film.id] }),
      'processing',
      ITEM_AUDIENCE,
    ],
    [
      'a new version',
      () =>
        server.sql.execute({
          sql: "INSERT INTO media_versions (media_id, number, storage_key, url, filename, file_size, mime_type) SELECT id, 2, storage_key || '-v2', url, filename, file_size, mime_type FROM media WHERE id = ?",
          args: [film.id],
        }),
      'version',
      ITEM_AUDIENCE,
    ],
  ];
  test.each(cases)('%s', async (_what, act, topic, expected) => {
    const from = marks();
    const r = (await act()) as { status?: number; body?: unknown };
    if (r && typeof r.status === 'number') expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    await barrier(from);
    expect(receivers(from, topic).sort()).toEqual([...expected].sort());
  });

  test('replies follow their note: under a client note to that client, under an internal note to staff only; resolving a guest note reaches that link', async () => {
    const own = await clientA.json('POST', `/api/client/media/${film.id}/timeline-notes`, { mediaId: film.id, noteText: 'mine', timestampMs: 4000 });
    const internal = await staffNote({ internal: true, text: 'secret' });
    const guest = await guests.commentLink!.json('POST', `/api/share/${commentLink.token}/media/${film.id}/timeline-notes`, { text: 'guest 2', timestampMs: 5000 });
    let from = marks();
    expect((await viewer.json('POST', `/api/admin/media/timeline-notes/${own.body.id}/replies`, { text: 'On it' })).status).toBe(201);
    await barrier(from);
    expect(receivers(from, 'reply').sort()).toEqual(['admin', 'clientA', 'viewer']);
    from = marks();
    expect((await viewer.json('POST', `/api/admin/media/timeline-notes/${internal.body.id}/replies`, { text: 'Between us' })).status).toBe(201);
    await barrier(from);
    expect(receivers(from, 'reply').sort()).toEqual(['admin', 'viewer']);
    from = marks();
    expect((await admin.json('PUT', `/api/admin/media/timeline-notes/${guest.body.id}/resolved`, { resolved: true, source: 'link' })).status).toBe(200);
    await barrier(from);
    expect(receivers(from, 'note', (m) => m.data.id === guest.body.id).sort()).toEqual(['admin', 'commentLink', 'viewer']);
  });

  test("the bell and a link's activity reach staff only: the bell anyone with view:media, the activity those who also manage links", async () => {
    const from = marks();
    // A client's note records a staff notification (the bell); a visit writes the access log.
    await clientA.json('POST', `/api/client/media/${film.id}/timeline-notes`, { mediaId: film.id, noteText: 'ring', timestampMs: 6000 });
    await new Session(server.url).get(`/s/${commentLink.token}`);
    await barrier(from);
    expect(receivers(from, 'bell', () => true, ['admin', 'viewer', 'clientA', 'clientB', 'commentLink'])).toEqual(['admin', 'viewer']);
    // sharerOnly (no view:media) has only its own barrier marker.
    expect(streams.sharerOnly!.of('bell', from.sharerOnly)).toHaveLength(1);
    expect(receivers(from, 'link-activity', (m) => m.data.linkId === commentLink.id).sort()).toEqual(['admin']);
  });

  test('no message names a file: watermarked viewers learn no clean file name', () => {
    const names = [film.storageKey, 'original.mp4', '.mp4', 'lp-', 'wm-'];
    for (const who of WHO) {
      const text = JSON.stringify(streams[who]!.messages);
      for (const n of names) expect(text, `${who}'s stream`).not.toContain(n);
    }
    // Nor a note's text.
    expect(JSON.stringify(streams.clientA!.messages)).not.toContain('secret');
  });
});

describe('proofing galleries (issue 53)', () => {
  test("a gallery's changes reach staff with view:media, the clients it is shared with and its links' visitors; nobody else; a watermarked link hears of its copies", async () => {
    const [imageId] = await uploadShots(admin, [{ name: 'LIVE_0001.jpg', width: 320, height: 200 }]);
    const g = await createGallery(admin, { title: 'Live gallery', mediaIds: [imageId] });
    expect((await admin.json('PUT', `/api/galleries/${g.id}/clients`, { clientIds: [clientAId] })).status).toBe(200);
    // The server's worker makes the link's copies as soon as it exists: its visitor's stream
    // resumes from before the link, so a copy made before it opened is replayed, not missed.
    const before = Number((await server.sql.execute('SELECT coalesce(max(id), 0) AS id FROM live_events')).rows[0]!.id);
    const link = await galleryLink(admin, g.id, { watermark: true });
    const visitor = new Session(server.url);
    expect((await visitor.get(`/s/${link.token}`)).status).toBe(200);
    const own = await openStream(visitor, `/api/share/${link.token}/live`, { lastEventId: before });
    try {
      // The copy of the image (a gallery link holds no items of its own, yet hears of it).
      await own.waitFor('the marked copy made', (m) => m.event === 'preview' && m.data.mediaId === imageId && m.data.status === 'done', 0, 60_000);
      const from = marks();
      const ownFrom = own.messages.length;
      expect((await admin.json('POST', `/api/galleries/${g.id}/lists`, { name: 'Pick 3', maxCount: 3 })).status).toBe(201);
      await own.waitFor("the gallery link's event", (m) => m.event === 'gallery' && m.data.galleryId === g.id && m.data.change === 'lists', ownFrom);
      await barrier(from);
      expect(receivers(from, 'gallery', (m) => m.data.galleryId === g.id).sort()).toEqual(['admin', 'clientA', 'clientA2', 'viewer']);
      // Ids and the kind of change only: no title or name.
      expect(Object.keys(own.messages.find((m) => m.event === 'gallery')!.data).sort()).toEqual(['change', 'galleryId', 'linkId', 'mediaId', 'versionId']);
    } finally {
      own.close();
    }
  });
});

describe('with the streams open, a change of who may see what applies to the next event', () => {
  test('a client unassigned gets nothing more about the item; assigned again, gets it again', async () => {
    expect((await admin.json('DELETE', `/api/media/${film.id}/clients/${clientAId}`)).status).toBe(200);
    let from = marks();
    await staffNote({ text: 'after unassign' });
    await barrier(from);
    expect(receivers(from, 'note')).not.toContain('clientA');
    expect(receivers(from, 'note')).toContain('viewer');
    expect((await admin.json('POST', `/api/media/${film.id}/clients/${clientAId}`)).status).toBe(201);
    from = marks();
    await staffNote({ text: 'after reassign' });
    await barrier(from);
    expect(receivers(from, 'note')).toContain('clientA');
    expect(streams.clientA!.ended).toBe(false);
  });

  test('an assignment reaches that client only: after an unassign, client B receives nothing', async () => {
    const item = await createVideo(server, { title: 'Assigned Then Not', assign: [clientAId], durationSeconds: 20 });
    const from = marks();
    expect((await admin.json('DELETE', `/api/media/${item.id}/clients/${clientAId}`)).status).toBe(200);
    await barrier(from);
    expect(receivers(from, 'assignment', (m) => m.data.mediaId === item.id).sort()).toEqual(['admin', 'clientA', 'clientA2', 'viewer']);
  });

  test('deactivating a client closes its streams, saying access-changed', async () => {
    const c = await createClientWithLogin(server, { name: 'Switched Off Co' });
    const login = await clientSession(server.url, c.username, c.password);
    const s = await openStream(login, '/api/live/stream?as=client');
    await server.sql.execute({ sql: 'UPDATE clients SET is_active = 0 WHERE id = ?', args: [c.clientId] });
    await s.whenEnded();
    expect(s.of('closed').map((m) => m.data.reason)).toEqual(['access-changed']);
  });

  test('a staff member whose role loses view:media gets nothing more; given it back, gets it again', async () => {
    const perm = (await server.sql.execute("SELECT id FROM permissions WHERE name = 'view:media'")).rows[0]!.id;
    expect((await admin.json('DELETE', `/api/roles/${viewerUser.roleId}/permissions/${perm}`)).status).toBe(200);
    let from = marks();
    await admin.json('POST', `/api/media/${film.id}/timeline-notes`, { text: 'no viewer', timestampMs: 1000 });
    await barrier(from, WHO.filter((w) => w !== 'viewer'));
    // The viewer's own barrier: its bell marker (it no longer sees any item).
    await server.sql.execute({ sql: 'UPDATE users SET bell_seen_id = bell_seen_id + 1 WHERE id = ?', args: [viewerUser.id] });
    await streams.viewer!.waitFor('the viewer marker', (m) => m.event === 'bell', from.viewer);
    expect(receivers(from, 'note', undefined, ['viewer'])).toEqual([]);
    expect((await admin.json('POST', `/api/roles/${viewerUser.roleId}/permissions/${perm}`)).status).toBe(200);
    from = marks();
    await admin.json('POST', `/api/media/${film.id}/timeline-notes`, { text: 'viewer again', timestampMs: 1000 });
    await barrier(from);
    expect(receivers(from, 'note', undefined, ['viewer'])).toEqual(['viewer']);
  });

  test('revoking a link ends its streams at once, saying why; the link reconnecting is refused', async () => {
    const g = await guestOf(plainLink, 'Second tab');
    const s = await openStream(g, `/api/share/${plainLink.token}/live`);
    const t0 = performance.now();
    expect((await admin.json('DELETE', `/api/share-links/${plainLink.id}`)).status).toBe(200);
    await Promise.all([s.whenEnded(), streams.plainLink!.whenEnded()]);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(s.of('closed').map((m) => m.data.reason)).toEqual(['link-gone']);
    const again = await EventStream.open(g, `/api/share/${plainLink.token}/live`);
    expect(again.status).toBe(404);
    expect(again.refusal.message).toMatch(/not available/);
  });

  test('signing out ends that session’s streams; another session of the same person stays open', async () => {
    const c = await createClientWithLogin(server, { name: 'Leaving Co' });
    const first = await clientSession(server.url, c.username, c.password);
    const second = await clientSession(server.url, c.username, c.password);
    const s1 = await openStream(first, '/api/live/stream?as=client');
    const s2 = await openStream(second, '/api/live/stream?as=client');
    expect((await first.post('/api/client/logout')).status).toBe(200);
    await s1.whenEnded();
    expect(s1.of('closed').map((m) => m.data.reason)).toEqual(['signed-out']);
    expect(s2.ended).toBe(false);
    s2.close();
  });

  test("a password change ends the person's streams", async () => {
    const u = await createStaffUser(server, { permissions: ['view:media'] });
    const staff = await staffSession(server.url, u.username, u.password);
    const s = await openStream(staff, '/api/live/stream?as=staff');
    const r = await admin.json('PUT', `/api/users/${u.id}`, { username: u.username, email: `${u.username}@studio.test`, forename: 'Test', surname: 'Staff', displayName: u.username, isActive: true, password: 'a-new-password-123' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await s.whenEnded();
    expect(s.of('closed').map((m) => m.data.reason)).toEqual(['signed-out']);
  });

  test('a stream needs a session or a pass: 401, and 400 for a missing side', async () => {
    expect((await EventStream.open(new Session(server.url), '/api/live/stream?as=staff')).status).toBe(401);
    expect((await EventStream.open(clientA, '/api/live/stream?as=staff')).status).toBe(401);
    const bad = await EventStream.open(admin, '/api/live/stream');
    expect(bad.status).toBe(400);
    expect(bad.refusal.message).toMatch(/as: /);
    expect((await EventStream.open(new Session(server.url), `/api/share/${commentLink.token}/live`)).status).toBe(401);
  });
});

describe('Last-Event-ID', () => {
  test('a reconnecting tab gets every event it missed, in order, once; events during the gap included', async () => {
    const first = await openStream(viewer, '/api/live/stream?as=staff');
    const before = marks();
    await staffNote({ text: 'seen live' });
    await barrier(before);
    const seen = await first.waitFor('the first note', (m) => m.event === 'note');
    first.close();
    const written: number[] = [];
    for (let i = 0; i < 12; i++) written.push((await staffNote({ text: `missed ${i}` })).body.id);
    const again = await openStream(viewer, '/api/live/stream?as=staff', { lastEventId: first.lastId });
    expect(again.hello.resumed).toBe(true);
    // More while the resumed stream is open: they follow the replayed ones.
    for (let i = 0; i < 3; i++) written.push((await staffNote({ text: `after ${i}` })).body.id);
    await again.waitFor('the last note', (m) => m.event === 'note' && m.data.id === written.at(-1));
    const notes = again.of('note').map((m) => m.data.id);
    expect(notes).toEqual(written);
    const ids = again.messages.filter((m) => m.id !== null).map((m) => m.id!);
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
    expect(ids[0]).toBeGreaterThan(seen.id!);
    again.close();
  });

  test('when the rows it missed are gone, the hello says resumed: false (the tab loads its screen again)', async () => {
    const s = await openStream(viewer, '/api/live/stream?as=staff');
    await staffNote({ text: 'x' });
    const last = (await s.waitFor('a note', (m) => m.event === 'note')).id!;
    s.close();
    await staffNote({ text: 'y' });
    // What pruning after LIVE_RETENTION_MS does.
    await server.sql.execute({ sql: 'DELETE FROM live_events WHERE id <= ?', args: [last + 1] });
    const again = await openStream(viewer, '/api/live/stream?as=staff', { lastEventId: last });
    expect(again.hello.resumed).toBe(false);
    again.close();
  });

  test('a resume right after pruning up to its last id is whole: resumed: true', async () => {
    const s = await openStream(viewer, '/api/live/stream?as=staff');
    await staffNote({ text: 'seen' });
    const last = (await s.waitFor('a note', (m) => m.event === 'note')).id!;
    s.close();
    const missed = (await staffNote({ text: 'missed' })).body.id;
    // Pruning took every row up to the last one the tab had, and none after it.
    await server.sql.execute({ sql: 'DELETE FROM live_events WHERE id <= ?', args: [last] });
    const again = await openStream(viewer, '/api/live/stream?as=staff', { lastEventId: last });
    expect(again.hello.resumed).toBe(true);
    await again.waitFor('the missed note', (m) => m.event === 'note' && m.data.id === missed);
    again.close();
  });
});

describe('bounds', () => {
  test('open streams per person: 429 beyond LIVE_STREAMS_PER_USER (5 here), counting every tab', async () => {
    const u = await createStaffUser(server, { permissions: ['view:media'] });
    const staff = await staffSession(server.url, u.username, u.password);
    const open: EventStream[] = [];
    for (let i = 0; i < 5; i++) open.push(await openStream(staff, '/api/live/stream?as=staff'));
    const refused = await EventStream.open(staff, '/api/live/stream?as=staff');
    expect(refused.status).toBe(429);
    expect(refused.refusal.message).toMatch(/Too many open live connections/);
    open.pop()!.close();
    await expect.poll(async () => (await EventStream.open(staff, '/api/live/stream?as=staff').then((s) => (s.close(), s.status)))).toBe(200);
    for (const s of open) s.close();
  });

  test('open streams per address: 429 beyond LIVE_STREAMS_PER_ADDRESS (20 here)', async () => {
    const open: EventStream[] = [];
    for (let i = 0; i < 5; i++) {
      const g = await guestOf(commentLink, `Crowd ${i}`);
      for (let j = 0; j < 4; j++) open.push(await openStream(g, `/api/share/${commentLink.token}/live`, { from: '127.0.0.7' }));
    }
    const g = await guestOf(commentLink, 'One more');
    const refused = await EventStream.open(g, `/api/share/${commentLink.token}/live`, { from: '127.0.0.7' });
    expect(refused.status).toBe(429);
    expect(refused.refusal.message).toMatch(/from your address/);
    // The same visitor from another address is let in.
    const elsewhere = await openStream(g, `/api/share/${commentLink.token}/live`, { from: '127.0.0.8' });
    elsewhere.close();
    for (const s of open) s.close();
  });
});
