// The process's reader of the events table (issue 41): while any stream is open it reads the
// rows after its cursor every LIVE_POLL_MS (rows written by other processes and by workers),
// at once when this process wrote one (log.ts wakes it), and at once when the database file
// changed on disk (wake.ts: another process on this machine wrote). Each row is handled once per
// process, in id order: system rows close or refresh streams, the others go to every stream
// whose holder may receive them (audience.ts). Several web processes therefore need nothing but
// the shared database to agree (docs/live-review.md, "Several processes").
import { config } from '../config.ts';
import { FactsCache, mayReceive, seesLive, type ItemFacts } from './audience.ts';
import { currentPermissions, invalid, linkAllowsComments } from './checks.ts';
import * as hub from './hub.ts';
import { appendEvent, headId, onKick, parseData, prune, readAfter, READ_BATCH, type LiveRow } from './log.ts';
import { admit, leave, publishParticipants, sessionById } from './sessions.ts';
import { watchDatabase } from './wake.ts';

let cursor = 0;
let started: Promise<void> | null = null;
let timer: ReturnType<typeof setInterval> | null = null;
let unwatch: () => void = () => undefined;
let busy = false;
let again = false;
let lastPrune = 0;
const PRUNE_EVERY_MS = 60_000;

/** Fields of a row's data that steer the tailer and are never sent. */
const STEERING = ['leave'];

type Waiter = { test: (row: LiveRow) => boolean; settle: (row: LiveRow | null) => void };
const waiters = new Set<Waiter>();

/**
 * The next row this process's reader handles that passes `test`, or null after `ms` (a join
 * waits so for the answer of the process holding its stream). Call `ensureRunning` first.
 */
export function nextRow(test: (row: LiveRow) => boolean, ms: number): Promise<LiveRow | null> {
  return new Promise((resolve) => {
    const w: Waiter = {
      test,
      settle: (row) => {
        clearTimeout(timer);
        waiters.delete(w);
        resolve(row);
      },
    };
    const timer = setTimeout(() => w.settle(null), ms);
    waiters.add(w);
  });
}

/** The message a row becomes (the same bytes for every stream that receives it). */
export function messageFor(row: LiveRow): Uint8Array {
  const data = parseData(row);
  for (const k of STEERING) delete data[k];
  if (row.topic === 'live') return hub.encodeMessage(row.id, 'live', data);
  if (row.topic === 'bell' || row.topic === 'sys-bell-seen') return hub.encodeMessage(row.id, 'bell', {});
  return hub.encodeMessage(row.id, row.topic, { mediaId: row.mediaId, versionId: row.versionId, linkId: row.linkId, ...data });
}

/**
 * Sends one row to one stream if its holder may receive it. While the stream replays from the
 * table, what the tailer hands it waits in `pending` and is sent after, without repeats.
 */
export function deliver(conn: hub.Connection, row: LiveRow, facts: ItemFacts, bytes: () => Uint8Array, replay = false): void {
  if (row.id <= conn.lastSentId && !conn.pending) return;
  const joined = row.sessionId !== null && conn.sessions.has(row.sessionId);
  const ok = row.topic.startsWith('sys-') ? row.topic === 'sys-bell-seen' && conn.principal.kind === 'staff' && parseData(row).userId === conn.principal.userId : mayReceive(conn.principal, row, facts, joined);
  if (conn.pending && !replay) {
    conn.pending.push({ id: row.id, bytes: ok ? bytes() : null });
    return;
  }
  if (row.id <= conn.lastSentId) return;
  conn.lastSentId = row.id;
  if (ok) hub.write(conn, bytes());
}

/** Starts reading (once); resolves when the cursor is set, so a new stream can replay up to it safely. */
export function ensureRunning(): Promise<void> {
  started ??= (async () => {
    cursor = await headId();
    onKick(() => void poll());
    timer = setInterval(() => void poll(), config.LIVE_POLL_MS);
    timer.unref();
    unwatch = watchDatabase(() => void poll());
  })().catch((e) => {
    started = null;
    throw e;
  });
  return started;
}

function stopIfIdle(): void {
  if (hub.count() > 0 || waiters.size > 0 || !timer) return;
  clearInterval(timer);
  timer = null;
  started = null;
  onKick(() => undefined);
  unwatch();
  unwatch = () => undefined;
}

async function poll(): Promise<void> {
  if (busy) {
    again = true;
    return;
  }
  busy = true;
  try {
    do {
      again = false;
      const rows = await readAfter(cursor);
      if (rows.length) {
        const facts = new FactsCache();
        for (const row of rows) {
          await handle(row, facts).catch((e) => console.error('live: handling event', row.id, e));
          cursor = row.id;
          for (const w of [...waiters]) if (w.test(row)) w.settle(row);
        }
      }
      if (rows.length === READ_BATCH) again = true;
    } while (again);
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now();
      await prune();
    }
  } catch (e) {
    console.error('live: reading events', e);
  } finally {
    busy = false;
    stopIfIdle();
  }
}

const where = (test: (c: hub.Connection) => boolean) => [...hub.all()].filter(test);

/** Drops memberships of sessions on `mediaId` whose holder may no longer see them. */
async function recheckMemberships(mediaId: number | null, conns: hub.Connection[], facts: FactsCache): Promise<void> {
  for (const conn of conns) {
    for (const [sessionId, m] of conn.sessions) {
      if (mediaId !== null && m.mediaId !== mediaId) continue;
      if (seesLive(conn.principal, await facts.item(m.mediaId))) continue;
      conn.sessions.delete(sessionId);
      hub.write(conn, hub.encodeMessage(null, 'live', { type: 'dropped', sessionId, reason: 'You no longer have access to this item.' }));
      const row = await sessionById(sessionId);
      if (row && !row.endedAt) await leave(row, conn.key);
    }
  }
}

async function handle(row: LiveRow, facts: FactsCache): Promise<void> {
  const data = parseData(row);
  switch (row.topic) {
    case 'sys-session':
      for (const c of where((c) => c.principal.kind === data.kind && 'sessionId' in c.principal && c.principal.sessionId === data.id)) hub.end(c, 'signed-out');
      return;
    case 'sys-join':
      await admitStream(row, data);
      return;
    case 'sys-visit':
      for (const c of where((c) => c.principal.kind === 'link' && c.principal.visitId === data.id)) hub.end(c, 'link-gone');
      return;
    case 'sys-client': {
      const affected = where((c) => c.principal.kind === 'client' && (c.principal.clientUserId === data.clientUserId || c.principal.clientId === data.clientId));
      for (const c of await invalid(affected)) hub.end(c, 'access-changed');
      return;
    }
    case 'sys-access': {
      const affected = where((c) => c.principal.kind === 'staff' && (data.userId === undefined || c.principal.userId === data.userId));
      const byUser = new Map<string, Promise<Set<string> | null>>();
      for (const c of affected) {
        if (c.principal.kind !== 'staff') continue;
        const userId = c.principal.userId;
        if (!byUser.has(userId)) byUser.set(userId, currentPermissions(userId));
        const permissions = await byUser.get(userId)!;
        if (!permissions) hub.end(c, 'access-changed');
        else c.principal = { ...c.principal, permissions };
      }
      await recheckMemberships(null, affected, facts);
      return;
    }
    case 'link': {
      const linkConns = where((c) => c.principal.kind === 'link' && c.principal.linkId === row.linkId);
      if (linkConns.length) {
        for (const c of await invalid(linkConns)) hub.end(c, 'link-gone');
        const allow = await linkAllowsComments(row.linkId!);
        for (const c of linkConns) if (c.principal.kind === 'link') c.principal = { ...c.principal, allowComment: allow };
        await recheckMemberships(null, linkConns, facts);
      }
      break;
    }
    case 'assignment':
      await recheckMemberships(row.mediaId, where((c) => c.principal.kind === 'client' && c.principal.clientId === row.clientId), facts);
      break;
    case 'live': {
      const leave = data.leave as { connection?: string; key?: string } | undefined;
      const conn = leave?.connection ? hub.find(leave.connection) : undefined;
      if (conn && conn.key === leave!.key && row.sessionId !== null) conn.sessions.delete(row.sessionId);
      break;
    }
  }
  const itemFacts = await facts.of(row);
  let bytes: Uint8Array | null = null;
  const lazy = () => (bytes ??= messageFor(row));
  for (const conn of hub.all()) deliver(conn, row, itemFacts, lazy);
  if (row.topic === 'live' && data.type === 'ended' && row.sessionId !== null) {
    for (const conn of hub.all()) conn.sessions.delete(row.sessionId);
  }
}

/**
 * A join (join.ts) naming a stream of this process, of the person joining: admits them (the
 * session's bounds) and attaches the stream, then answers. Any other process stays silent, so a
 * join naming no open stream of its caller is answered by no one and admits no one.
 */
async function admitStream(row: LiveRow, data: Record<string, unknown>): Promise<void> {
  const conn = typeof data.connection === 'string' ? hub.find(data.connection) : undefined;
  if (!conn || conn.key !== data.key || row.sessionId === null || row.mediaId === null) return;
  const session = await sessionById(row.sessionId);
  const admission = session && !session.endedAt ? await admit(session, conn.principal) : ({ refused: 'ended' } as const);
  if ('participant' in admission) {
    if (!conn.closed) {
      conn.sessions.set(session!.id, { participant: admission.participant, mediaId: row.mediaId });
      await publishParticipants(session!);
    } else if (!hub.inSession(conn.key, session!.id)) {
      // Closed while being admitted: its close found nothing to leave, so leave now.
      await leave(session!, conn.key);
    }
  }
  await appendEvent({ topic: 'sys-joined', audience: 'system', mediaId: row.mediaId, sessionId: row.sessionId, data: { nonce: data.nonce, ...admission } });
}

/** On the heartbeat: streams whose session, pass or link ended without an event (expiry). */
hub.onHeartbeat(() => {
  invalid(hub.all())
    .then((gone) => {
      for (const c of gone) hub.end(c, c.principal.kind === 'link' ? 'link-gone' : 'signed-out');
    })
    .catch((e) => console.error('live: checking streams', e));
});
