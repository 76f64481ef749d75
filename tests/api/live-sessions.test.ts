// Live review sessions over the API (issue 41): who may start, see and join one; a join names an
// open stream of its caller and a participant without one is gone (issue 51); that the session's
// messages go to its participants only, and stop at Leave; the presenter alone drives it, the
// starter may take control back, only they or staff end it; the bounds (participants per
// session and per link, messages per second per participant and per link, bytes per drawing:
// 429 and 413); a stalled stream cut rather than queued, and its tab resuming from its last
// complete message; a presenter gone for LIVE_PRESENTER_GRACE_MS ends it with a summary kept
// on the item, naming a client by the client's name.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin, createStaffUser } from '../helpers/accounts.ts';
import { createVideo, type MediaFixture } from '../helpers/portal-fixtures.ts';
import { EventStream, openStream, type SseMessage } from '../helpers/sse.ts';
import { until } from '../helpers/until.ts';

let server: TestServer;
let admin: Session;
let viewer: Session; // view:media
let outsider: Session; // staff without view:media
let client: Session;
let clientLogin: string;
let otherClient: Session;
let film: MediaFixture;
let v1: number;
let commentLink: { id: number; token: string };
let secondCommentLink: { id: number; token: string };
let plainLink: { id: number; token: string };
const opened: EventStream[] = [];

const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;
async function guestOf(token: string, name: string) {
  const g = new Session(server.url);
  expect((await g.get(`/s/${token}`)).status).toBe(200);
  expect((await g.json('PUT', `/api/share/${token}/name`, { name })).status).toBe(200);
  return g;
}
async function stream(s: Session, path: string, opts: Parameters<typeof openStream>[2] = {}) {
  const st = await openStream(s, path, opts);
  opened.push(st);
  return st;
}
const staffStream = (s: Session) => stream(s, '/api/live/stream?as=staff');

/** An HTTP/1.1 answer's body from its raw bytes (head, then chunks). */
function dechunk(raw: Buffer): Buffer {
  let at = raw.indexOf('\r\n\r\n') + 4;
  const parts: Buffer[] = [];
  while (at < raw.length) {
    const eol = raw.indexOf('\r\n', at);
    const size = parseInt(raw.subarray(at, eol).toString(), 16);
    if (!(size > 0)) break;
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

beforeAll(async () => {
  server = await startServer({
    env: {
      LIVE_SESSION_MAX_PARTICIPANTS: '4',
      LIVE_LINK_MAX_PARTICIPANTS: '2',
      LIVE_EVENTS_PER_SECOND: '20',
      LIVE_LINK_EVENTS_PER_SECOND: '5',
      LIVE_STROKE_BYTES: '40000',
      LIVE_PRESENTER_GRACE_MS: '1500',
      LIVE_SLOW_CLIENT_BYTES: '65536',
    },
  });
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const v = await createStaffUser(server, { permissions: ['view:media'] });
  viewer = await staffSession(server.url, v.username, v.password);
  const o = await createStaffUser(server, { permissions: ['share:media', 'edit:website'] });
  outsider = await staffSession(server.url, o.username, o.password);
  const c = await createClientWithLogin(server, { name: 'Harbour Films' });
  client = await clientSession(server.url, c.username, c.password);
  clientLogin = c.username;
  const oc = await createClientWithLogin(server, { name: 'Other Co' });
  otherClient = await clientSession(server.url, oc.username, oc.password);
  film = await createVideo(server, { title: 'Session Film', clientId: c.clientId, durationSeconds: 20 });
  v1 = Number((await server.sql.execute({ sql: 'SELECT id FROM media_versions WHERE media_id = ?', args: [film.id] })).rows[0]!.id);
  const mk = async (extra: Record<string, unknown>) => {
    const r = await admin.json('POST', '/api/share-links', { name: 'Link', mediaIds: [film.id], ...extra });
    expect(r.status).toBe(201);
    return { id: r.body.id as number, token: tokenOf(r.body.url) };
  };
  commentLink = await mk({ allowComment: true });
  secondCommentLink = await mk({ allowComment: true });
  plainLink = await mk({});
}, 120_000);

afterAll(async () => {
  for (const s of opened) s.close();
  await server?.stop();
});

const start = (s: Session = admin) => s.json('POST', `/api/media/${film.id}/live`, {});
const act = (s: Session, id: number, action: string, body?: unknown) => s.json('POST', `/api/live/sessions/${id}/${action}?as=staff`, body);
const clientAct = (id: number, action: string, body?: unknown) => client.json('POST', `/api/live/sessions/${id}/${action}?as=client`, body);
const guestAct = (g: Session, token: string, id: number, action: string, body?: unknown) => g.json('POST', `/api/share/${token}/live/${id}/${action}`, body);
const state = (frame: number) => ({ versionId: v1, playing: false, rate: 1, ms: frame * 40, frame });

/** A new session the admin presents over a stream of their own (any open one ended first). */
async function presented() {
  await endAll();
  const presenterStream = await staffStream(admin);
  const id: number = (await start()).body.id;
  expect((await act(admin, id, 'join', { connection: presenterStream.hello.connection })).status).toBe(200);
  return { id, presenterStream };
}

/** A session the admin presents, with the client and a guest of commentLink joined, each over a stream of their own. */
async function sessionOfThree(guestName: string) {
  const { id } = await presented();
  const clientStream = await stream(client, '/api/live/stream?as=client');
  const guest = await guestOf(commentLink.token, guestName);
  const guestStream = await stream(guest, `/api/share/${commentLink.token}/live`);
  expect((await clientAct(id, 'join', { connection: clientStream.hello.connection })).status).toBe(200);
  const joined = await guestAct(guest, commentLink.token, id, 'join', { connection: guestStream.hello.connection });
  expect(joined.status).toBe(200);
  return { id, guest, guestStream, guestView: joined.body };
}

async function endAll() {
  const open = await server.sql.execute('SELECT id FROM live_sessions WHERE ended_at IS NULL');
  for (const r of open.rows) await act(admin, Number(r.id), 'end');
}

describe('who may start, see and join', () => {
  test('staff with view:media start one (201; the open one again: 200); others may not', async () => {
    await endAll();
    expect((await start(outsider)).status).toBe(403);
    expect((await client.json('POST', `/api/media/${film.id}/live`, {})).status).toBe(401);
    expect((await new Session(server.url).json('POST', `/api/media/${film.id}/live`, {})).status).toBe(401);
    expect((await admin.json('POST', `/api/media/999999/live`, {})).status).toBe(404);
    expect((await admin.json('POST', `/api/media/${film.id}/live`, { versionId: 999999 })).status).toBe(400);
    const first = await start(viewer);
    expect(first.status).toBe(201);
    const again = await start(admin);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    await endAll();
  });

  test('the hello and `started` reach staff with view:media, the item’s client and links allowing comments, no one else', async () => {
    await endAll();
    const g1 = await guestOf(commentLink.token, 'Sam');
    const g2 = await guestOf(plainLink.token, 'Pat');
    const s = {
      viewer: await staffStream(viewer),
      outsider: await staffStream(outsider),
      client: await stream(client, '/api/live/stream?as=client'),
      otherClient: await stream(otherClient, '/api/live/stream?as=client'),
      commentGuest: await stream(g1, `/api/share/${commentLink.token}/live`),
      plainGuest: await stream(g2, `/api/share/${plainLink.token}/live`),
    };
    const marks = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v.messages.length]));
    const r = await start();
    expect(r.status).toBe(201);
    // The presenter is there (a session whose presenter never comes ends after the grace).
    const presenting = await staffStream(admin);
    expect((await act(admin, r.body.id, 'join', { connection: presenting.hello.connection })).status).toBe(200);
    for (const k of ['viewer', 'client', 'commentGuest'] as const) await s[k].waitFor(`${k} told`, (m) => m.event === 'live' && m.data.type === 'started' && m.data.session.id === r.body.id, marks[k]);
    // Late streams learn of it from their hello.
    const late = {
      viewer: await staffStream(viewer),
      outsider: await staffStream(outsider),
      client: await stream(client, '/api/live/stream?as=client'),
      otherClient: await stream(otherClient, '/api/live/stream?as=client'),
      commentGuest: await stream(g1, `/api/share/${commentLink.token}/live`),
      plainGuest: await stream(g2, `/api/share/${plainLink.token}/live`),
    };
    const sees = Object.entries(late)
      .filter(([, v]) => v.hello.sessions.some((x: { id: number }) => x.id === r.body.id))
      .map(([k]) => k)
      .sort();
    expect(sees).toEqual(['client', 'commentGuest', 'viewer']);
    // Those who may not see it get nothing about it, and cannot join or read it (404: it tells nothing).
    for (const k of ['outsider', 'otherClient', 'plainGuest'] as const) expect(s[k].messages.slice(marks[k]).filter((m) => m.event === 'live')).toEqual([]);
    expect((await otherClient.json('POST', `/api/live/sessions/${r.body.id}/join?as=client`, { connection: late.otherClient.hello.connection })).status).toBe(404);
    expect((await guestAct(g2, plainLink.token, r.body.id, 'join', { connection: late.plainGuest.hello.connection })).status).toBe(404);
    expect((await outsider.json('GET', `/api/live/sessions/${r.body.id}?as=staff`)).status).toBe(404);
    expect((await guestAct(g1, commentLink.token, r.body.id, 'join', { connection: 'nope' })).status).toBe(400);
    await endAll();
  });
});

describe('in a session', () => {
  test('the player state goes to participants only, from the presenter only; it is kept for a late joiner', async () => {
    await endAll();
    const presenterStream = await staffStream(admin);
    const followerStream = await stream(client, '/api/live/stream?as=client');
    const watcher = await staffStream(viewer); // sees the session, has not joined
    const r = await start();
    const id = r.body.id;
    expect((await act(admin, id, 'join', { connection: presenterStream.hello.connection })).status).toBe(200);
    const joined = await clientAct(id, 'join', { connection: followerStream.hello.connection });
    expect(joined.status).toBe(200);
    expect(joined.body.participants.map((p: { kind: string; presenter: boolean }) => [p.kind, p.presenter])).toEqual([
      ['staff', true],
      ['client', false],
    ]);
    const mark = watcher.messages.length;
    const sent = await act(admin, id, 'state', state(42));
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const got = await followerStream.waitFor('the state', (m) => m.event === 'live' && m.data.type === 'state' && m.data.state.frame === 42);
    expect(got.data.state).toMatchObject({ versionId: v1, playing: false, frame: 42 });
    expect(typeof got.data.state.at).toBe('number');
    // The watcher gets the next 'participants' once someone joins, but never the state.
    expect((await act(viewer, id, 'join', { connection: watcher.hello.connection })).status).toBe(200);
    await watcher.waitFor('the participants', (m) => m.event === 'live' && m.data.type === 'participants', mark);
    expect(watcher.messages.slice(mark).filter((m) => m.event === 'live' && m.data.type === 'state')).toEqual([]);
    // A late joiner starts where everyone is.
    expect((await act(viewer, id, 'join', { connection: watcher.hello.connection })).body.state.frame).toBe(42);
    // Only the presenter drives; a state naming another item's version is refused.
    const f = await clientAct(id, 'state', state(1));
    expect(f.status).toBe(403);
    expect(f.body.message).toMatch(/Only the presenter/);
    expect((await act(admin, id, 'state', { ...state(1), versionId: 999999 })).status).toBe(400);
    expect((await act(admin, id, 'state', { ...state(1), rate: 0 })).status).toBe(400);
    // Handing control over: the client's states now go out, the former presenter's are refused.
    expect((await act(admin, id, 'control', { to: joined.body.me })).status).toBe(200);
    expect((await clientAct(id, 'state', state(7))).status).toBe(200);
    await presenterStream.waitFor('the client’s state', (m) => m.event === 'live' && m.data.type === 'state' && m.data.state.frame === 7);
    expect((await act(admin, id, 'state', state(8))).status).toBe(403);
    await endAll();
  });

  test('hand over: by the presenter, or the staff member who started it taking control back; a joined viewer’s control answers 403', async () => {
    await endAll();
    const presenterStream = await staffStream(admin);
    const viewerStream = await staffStream(viewer);
    const clientStream = await stream(client, '/api/live/stream?as=client');
    const id = (await start()).body.id;
    const mine = await act(admin, id, 'join', { connection: presenterStream.hello.connection });
    const theirs = await act(viewer, id, 'join', { connection: viewerStream.hello.connection });
    const clients = await clientAct(id, 'join', { connection: clientStream.hello.connection });
    expect([mine.body.starter, theirs.body.starter, clients.body.starter]).toEqual([true, false, false]);
    const denied = await act(viewer, id, 'control', { to: theirs.body.me });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toMatch(/Only the presenter/);
    expect((await act(admin, id, 'control', { to: clients.body.me })).status).toBe(200);
    expect((await act(viewer, id, 'control', { to: theirs.body.me })).status).toBe(403);
    // The starter takes it back while the client presents.
    expect((await act(admin, id, 'control', { to: mine.body.me })).status).toBe(200);
    expect((await act(admin, id, 'state', state(5))).status).toBe(200);
    expect((await clientAct(id, 'state', state(6))).status).toBe(403);
    await endAll();
  });

  test('ending: the presenter or staff with view:media; a client’s or a guest’s end answers 403', async () => {
    const { id, guest: g } = await sessionOfThree('Enda');
    for (const r of [await clientAct(id, 'end'), await guestAct(g, commentLink.token, id, 'end')]) {
      expect(r.status).toBe(403);
      expect(r.body.message).toMatch(/Only the presenter/);
    }
    expect((await act(viewer, id, 'end')).status).toBe(200);
  });

  test('link guests see a client by the client’s name, never the portal login (the participants, the summary)', async () => {
    const { id, guestView, guestStream } = await sessionOfThree('Nosy');
    expect(guestView.participants.find((p: { kind: string }) => p.kind === 'client').name).toBe('Harbour Films');
    await guestStream.waitFor('the client in the list', (m) => m.event === 'live' && m.data.type === 'participants' && m.data.participants.some((p: { name: string }) => p.name === 'Harbour Films'));
    expect((await act(admin, id, 'end')).status).toBe(200);
    const ended = await guestStream.waitFor('the summary', (m) => m.event === 'live' && m.data.type === 'ended' && m.data.sessionId === id);
    expect(ended.data.summary.participants.map((p: { name: string }) => p.name)).toContain('Harbour Films');
    expect(JSON.stringify(guestStream.messages)).not.toContain(clientLogin);
  });

  test('Leave detaches the tab’s stream: the session’s state and drawings stop arriving on it', async () => {
    await endAll();
    const presenterStream = await staffStream(admin);
    const leaving = await staffStream(viewer);
    const id = (await start()).body.id;
    expect((await act(admin, id, 'join', { connection: presenterStream.hello.connection })).status).toBe(200);
    expect((await act(viewer, id, 'join', { connection: leaving.hello.connection })).status).toBe(200);
    expect((await act(admin, id, 'state', state(3))).status).toBe(200);
    await leaving.waitFor('the state while in', (m) => m.event === 'live' && m.data.type === 'state' && m.data.state.frame === 3);
    expect((await act(viewer, id, 'leave', { connection: leaving.hello.connection })).status).toBe(200);
    const mark = leaving.messages.length;
    expect((await act(admin, id, 'state', state(9))).status).toBe(200);
    expect((await act(admin, id, 'draw', { shapes: [{ kind: 'arrow', color: 'red', points: [[0.1, 0.1], [0.2, 0.2]] }] })).status).toBe(200);
    // A change every staff stream receives after them (events go out in the table's order).
    expect((await admin.json('PUT', `/api/media/${film.id}`, { notes: `after leave ${Date.now()}` })).status).toBe(200);
    await leaving.waitFor('the item change', (m) => m.event === 'media' && m.data.mediaId === film.id, mark);
    expect(leaving.messages.slice(mark).filter((m) => m.event === 'live')).toEqual([]);
    await endAll();
  });

  test('a join names an open stream of its caller: a made-up id, another person’s stream or a closed one admits no one', async () => {
    const { id, presenterStream } = await presented();
    const g = await guestOf(commentLink.token, 'Ghost');
    const closing = await stream(g, `/api/share/${commentLink.token}/live`);
    closing.close();
    const madeUp = randomBytes(16).toString('base64url');
    const tries = await Promise.all(
      [madeUp, presenterStream.hello.connection, closing.hello.connection].map((connection) => guestAct(g, commentLink.token, id, 'join', { connection })),
    );
    for (const r of tries.slice(0, 2)) {
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body.message).toMatch(/live connection is not open/);
    }
    // The closed one is refused, or (when the join reached the server before the close) gone as the close lands.
    expect([200, 409]).toContain(tries[2]!.status);
    const present = async () => (await admin.json('GET', `/api/live/sessions/${id}?as=staff`)).body.participants.filter((p: { present: boolean }) => p.present).map((p: { kind: string }) => p.kind);
    await until('no one but the presenter present', async () => (await present()).join() === 'staff', 5000);
    // With a stream of its own the guest joins.
    const own = await stream(g, `/api/share/${commentLink.token}/live`);
    expect((await guestAct(g, commentLink.token, id, 'join', { connection: own.hello.connection })).status).toBe(200);
    expect(await present()).toEqual(['staff', 'guest']);
    await endAll();
  });

  test('a participant no process renews (their web process died) is marked gone', async () => {
    const { id, presenterStream } = await presented();
    // What a process that died leaves behind: a participant present, last renewed ten minutes ago.
    await server.sql.execute({
      sql: "INSERT INTO live_participants (session_id, key, kind, name, last_seen_at, following) VALUES (?, 'guest:0:gone', 'guest', 'Lost Tab', ?, 1)",
      args: [id, Date.now() - 600_000],
    });
    const gone = await presenterStream.waitFor('the lost tab gone', (m) => m.event === 'live' && m.data.type === 'participants' && m.data.participants.some((p: { name: string; present: boolean }) => p.name === 'Lost Tab' && !p.present), 0, 10_000);
    expect(gone.data.participants.filter((p: { present: boolean }) => p.present).map((p: { kind: string }) => p.kind)).toEqual(['staff']);
    await endAll();
  });

  test('messages per link: all of a link’s guests together get LIVE_LINK_EVENTS_PER_SECOND (5 here, a burst of 10)', async () => {
    const { id } = await presented();
    const r = await admin.json('POST', '/api/share-links', { name: 'Busy link', mediaIds: [film.id], allowComment: true });
    const busy = { token: tokenOf(r.body.url) };
    const pair: Session[] = [];
    for (const name of ['Ann', 'Bob']) {
      const g = await guestOf(busy.token, name);
      const st = await stream(g, `/api/share/${busy.token}/live`);
      expect((await guestAct(g, busy.token, id, 'join', { connection: st.hello.connection })).status).toBe(200);
      pair.push(g);
    }
    // Twenty pointer moves each at once: each guest alone is within their own 40 (LIVE_EVENTS_PER_SECOND=20),
    // together past their link's 10 (less the two joins) and what refills while they are answered.
    const t0 = performance.now();
    const moves = await Promise.all(pair.flatMap((g) => Array.from({ length: 20 }, () => guestAct(g, busy.token, id, 'pointer', { x: 0.5, y: 0.5 }))));
    const seconds = (performance.now() - t0) / 1000;
    const passed = moves.filter((m) => m.status === 200).length;
    expect(passed + moves.filter((m) => m.status === 429).length).toBe(40);
    expect(passed).toBeLessThanOrEqual(10 + Math.ceil(5 * seconds) + 1);
    expect(passed).toBeGreaterThanOrEqual(8);
    await endAll();
  });

  test('bounds: participants per session and per link (429), messages per second (429), bytes per drawing (413)', { timeout: 90_000 }, async () => {
    await endAll();
    const id = (await start()).body.id;
    const presenterStream = await staffStream(admin);
    expect((await act(admin, id, 'join', { connection: presenterStream.hello.connection })).status).toBe(200);
    const guestJoins = async (link: { token: string }, name: string) => {
      const g = await guestOf(link.token, name);
      const st = await stream(g, `/api/share/${link.token}/live`);
      return { g, r: await guestAct(g, link.token, id, 'join', { connection: st.hello.connection }) };
    };
    // LIVE_LINK_MAX_PARTICIPANTS=2: two guests of a link join, a third (a fresh pass) is refused.
    const guests: Session[] = [];
    for (let i = 0; i < 3; i++) {
      const { g, r } = await guestJoins(commentLink, `Guest ${i}`);
      if (i < 2) expect(r.status, JSON.stringify(r.body)).toBe(200);
      else {
        expect(r.status).toBe(429);
        expect(r.body.message).toMatch(/already has 2 guests/);
      }
      guests.push(g);
    }
    // LIVE_SESSION_MAX_PARTICIPANTS=4: the client makes four; a guest of another link is refused.
    const clientStream = await stream(client, '/api/live/stream?as=client');
    expect((await clientAct(id, 'join', { connection: clientStream.hello.connection })).status).toBe(200);
    const { r: fifth } = await guestJoins(secondCommentLink, 'Guest of another link');
    expect(fifth.status).toBe(429);
    expect(fifth.body.message).toMatch(/full \(4 people\)/);
    // Messages per second, on a server of its own allowing 1 a second (a burst of 2): twelve
    // pointer moves at once. No more pass than the burst and what refilled while they were
    // answered; the rest are 429 (all would pass only if answering them took over 9 s).
    const slow = await startServer({ env: { LIVE_EVENTS_PER_SECOND: '1' } });
    try {
      const boss = await staffSession(slow.url, ADMIN.username, ADMIN.password);
      const item = await createVideo(slow, { title: 'Rate Film', durationSeconds: 20 });
      const st = await openStream(boss, '/api/live/stream?as=staff');
      const sid = (await boss.json('POST', `/api/media/${item.id}/live`, {})).body.id;
      // The join is a message too: it takes one of the burst's two tokens.
      const t0 = performance.now();
      expect((await boss.json('POST', `/api/live/sessions/${sid}/join?as=staff`, { connection: st.hello.connection })).status).toBe(200);
      const moves = await Promise.all(Array.from({ length: 12 }, () => boss.json('POST', `/api/live/sessions/${sid}/pointer?as=staff`, { x: 0.5, y: 0.5 })));
      const seconds = (performance.now() - t0) / 1000;
      const passed = moves.filter((m) => m.status === 200).length;
      const refused = moves.filter((m) => m.status === 429);
      expect(passed + refused.length).toBe(12);
      expect(passed).toBeGreaterThanOrEqual(1);
      expect(passed).toBeLessThanOrEqual(1 + Math.ceil(seconds) + 1);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0]!.body.message).toMatch(/Too many live messages/);
      st.close();
    } finally {
      await slow.stop();
    }
    expect((await guestAct(guests[1]!, commentLink.token, id, 'pointer', { x: 0.1, y: 0.1 })).status).toBe(200);
    // LIVE_STROKE_BYTES=40000: 2,000 points written with every digit are over it.
    const points = Array.from({ length: 2000 }, (_, i) => [0.123456789012345 + i / 1e6, 0.567890123456789]);
    const big = await guestAct(guests[1]!, commentLink.token, id, 'draw', { shapes: [{ kind: 'freehand', color: 'red', points }] });
    expect(big.status).toBe(413);
    expect(big.body.message).toMatch(/at most 40000 bytes/);
    expect((await guestAct(guests[1]!, commentLink.token, id, 'draw', { shapes: [{ kind: 'arrow', color: 'red', points: [[0.1, 0.1], [0.2, 0.2]] }] })).status).toBe(200);
    // Bad input is a 400 naming the field, never a 500.
    expect((await guestAct(guests[1]!, commentLink.token, id, 'pointer', { x: 2, y: 0 })).status).toBe(400);
    expect((await guestAct(guests[1]!, commentLink.token, id, 'nonsense', {})).status).toBe(404);
    await endAll();
  });

  test('a stalled stream is cut rather than queued: its whole messages, then closed (too-slow); it resumes from the last one; a reading one gets every message', async () => {
    await endAll();
    const id = (await start()).body.id;
    const reading = await staffStream(admin);
    expect((await act(admin, id, 'join', { connection: reading.hello.connection })).status).toBe(200);
    // A viewer whose browser stops reading: a raw socket that reads the hello, then nothing.
    const socket = net.connect(server.port, '127.0.0.1');
    socket.setNoDelay(true);
    await new Promise<void>((r) => socket.once('connect', () => r()));
    socket.write(`GET /api/live/stream?as=staff HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nCookie: ${viewer.cookieHeader()}\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n`);
    const raw: Buffer[] = [];
    const hello = await new Promise<string>((resolve) => {
      const on = (c: Buffer) => {
        raw.push(c);
        const m = /event: hello\ndata: (\{.*\})\n/.exec(Buffer.concat(raw).toString());
        if (m) {
          socket.off('data', on);
          resolve(JSON.parse(m[1]!).connection);
        }
      };
      socket.on('data', on);
    });
    socket.pause();
    let closed = false;
    socket.on('data', (c: Buffer) => raw.push(c));
    socket.on('close', () => (closed = true));
    socket.on('error', () => undefined);
    const joined = await act(viewer, id, 'join', { connection: hello });
    expect(joined.status).toBe(200);
    // Drawings of ~32 KB (the most a note's 2,000 points make) until the server gives up on the
    // stalled stream, which marks its viewer gone: more than the socket buffers take on loopback
    // (about 4 MB here) and LIVE_SLOW_CLIENT_BYTES (64 KB) after them.
    let given = false;
    const givenUp = reading.waitFor('the stalled viewer gone', (m) => m.event === 'live' && m.data.type === 'participants' && m.data.participants.some((p: { id: number; present: boolean }) => p.id === joined.body.me && !p.present), 0, 120_000);
    void givenUp.then(() => (given = true));
    const shapes = [{ kind: 'freehand', color: 'red', points: Array.from({ length: 2000 }, (_, i) => [0.1 + i / 10_000, 0.5432]) }];
    let sent = 0;
    while (!given && sent < 1000) {
      const r = await act(admin, id, 'draw', { shapes });
      if (r.status === 200) sent++;
      else {
        expect(r.status).toBe(429);
        await new Promise((res) => setTimeout(res, 100));
      }
    }
    await givenUp;
    // Written while it was away: what a tab resuming from its last message must get.
    const missed = await admin.json('POST', `/api/media/${film.id}/timeline-notes`, { text: 'While you were away', timestampMs: 1500 });
    expect(missed.status).toBe(201);
    // The reading stream got every drawing.
    const draws = (st: EventStream) => st.messages.filter((m) => m.event === 'live' && m.data.type === 'draw').length;
    await reading.waitFor('the last drawing', () => draws(reading) === sent, 0, 30_000);
    // Reading again, the stalled one finds whole messages, then `closed` (too-slow), then the end.
    socket.resume();
    await expect.poll(() => closed, { timeout: 15_000 }).toBe(true);
    const body = dechunk(Buffer.concat(raw)).toString();
    expect(body.endsWith('\n\nevent: closed\ndata: {"reason":"too-slow"}\n\n')).toBe(true);
    const got = body.split('"type":"draw"').length - 1;
    expect(got).toBeGreaterThan(0);
    expect(got).toBeLessThan(sent);
    // Its tab reconnects from the last message it had and gets what it missed (its session it joins again).
    const lastId = Math.max(...[...body.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])));
    const again = await stream(viewer, '/api/live/stream?as=staff', { lastEventId: lastId });
    expect(again.hello.resumed).toBe(true);
    await again.waitFor('the note it missed', (m) => m.event === 'note' && m.data.id === missed.body.id);
    expect(again.messages.filter((m) => m.id !== null && m.id <= lastId)).toEqual([]);
    socket.destroy();
    await endAll();
  }, 150_000);

  test('a presenter gone for LIVE_PRESENTER_GRACE_MS ends it; the summary (who joined, notes made) stays on the item', async () => {
    await endAll();
    const presenter = await staffStream(admin);
    const follower = await stream(client, '/api/live/stream?as=client');
    const id = (await start()).body.id;
    expect((await act(admin, id, 'join', { connection: presenter.hello.connection })).status).toBe(200);
    expect((await clientAct(id, 'join', { connection: follower.hello.connection })).status).toBe(200);
    expect((await admin.json('POST', `/api/media/${film.id}/timeline-notes`, { text: 'In the session', timestampMs: 1000 })).status).toBe(201);
    const mark = follower.messages.length;
    // The presenter's tab closes: they have left; 1.5 s later the session ends.
    presenter.close();
    const left = await follower.waitFor('the presenter gone', (m) => m.event === 'live' && m.data.type === 'participants' && m.data.participants.some((p: { presenter: boolean; present: boolean }) => p.presenter && !p.present), mark);
    const ended = await follower.waitFor('the end', (m) => m.event === 'live' && m.data.type === 'ended' && m.data.sessionId === id, mark);
    expect(ended.at - left.at).toBeGreaterThan(1000);
    expect(ended.data.summary).toMatchObject({ reason: 'presenter-left', notes: 1 });
    expect(ended.data.summary.participants.map((p: { kind: string }) => p.kind)).toEqual(['staff', 'client']);
    const kept = await viewer.json('GET', `/api/media/${film.id}/live`);
    expect(kept.body.find((x: { id: number }) => x.id === id)).toMatchObject({ summary: { reason: 'presenter-left', notes: 1 } });
    expect((await clientAct(id, 'state', state(1))).status).toBe(410);
  });
});
