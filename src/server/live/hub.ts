// The open event streams of this process (one per browser tab): counting them against the
// limits, writing to them, a heartbeat, and ending a stream whose client does not keep up.
// A stream's unsent bytes are watched on its Node response (scripts/serve.mjs runs every
// request with it at hand): past LIVE_SLOW_CLIENT_BYTES nothing more is queued to it but
// `closed` (too-slow) and its end, so a stalled client costs at most that much memory, for at
// most a heartbeat. A tab that reads again gets every whole message queued, then the reason,
// and reconnects from the last one (docs/live-review.md).
import type { ServerResponse } from 'node:http';
import { config } from '../config.ts';
import type { LivePrincipal } from './principal.ts';
import type { LiveClosed } from '../../shared/schemas/live.ts';

export interface Membership {
  participant: number;
  mediaId: number;
}

export interface Connection {
  /** Given to the tab in its hello; it names this stream when joining a session. */
  readonly id: string;
  principal: LivePrincipal;
  readonly key: string;
  readonly address: string;
  readonly res: ServerResponse | null;
  controller: ReadableStreamDefaultController<Uint8Array> | null;
  /** The newest event id sent (or skipped as not for this principal): nothing at or below it is sent again. */
  lastSentId: number;
  /** While the stream replays from the table: what the tailer dispatched meanwhile. */
  pending: { id: number; bytes: Uint8Array | null }[] | null;
  /** Live sessions this stream has joined. */
  sessions: Map<number, Membership>;
  closed: boolean;
}

const encoder = new TextEncoder();

/** One SSE message; `id` null for messages outside the log (hello, closed). */
export function encodeMessage(id: number | null, event: string, data: unknown): Uint8Array {
  return encoder.encode(`${id === null ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

const HEARTBEAT = encoder.encode(': keep-alive\n\n');

const connections = new Set<Connection>();
const byKey = new Map<string, number>();
const byAddress = new Map<string, number>();
const closeListeners: ((conn: Connection) => void)[] = [];
let heartbeat: ReturnType<typeof setInterval> | null = null;
const heartbeatTasks: (() => void)[] = [];

const bump = (m: Map<string, number>, k: string, by: number) => {
  const n = (m.get(k) ?? 0) + by;
  if (n > 0) m.set(k, n);
  else m.delete(k);
};

export type LimitHit = 'user' | 'address' | 'process' | null;

/** Which bound a new stream would break, if any. */
export function limitFor(key: string, address: string): LimitHit {
  if (connections.size >= config.LIVE_STREAMS_PER_PROCESS) return 'process';
  if ((byKey.get(key) ?? 0) >= config.LIVE_STREAMS_PER_USER) return 'user';
  if ((byAddress.get(address) ?? 0) >= config.LIVE_STREAMS_PER_ADDRESS) return 'address';
  return null;
}

export function register(conn: Connection): void {
  connections.add(conn);
  bump(byKey, conn.key, 1);
  bump(byAddress, conn.address, 1);
  if (!heartbeat) {
    heartbeat = setInterval(() => {
      for (const c of connections) write(c, HEARTBEAT);
      for (const task of heartbeatTasks) task();
    }, config.LIVE_HEARTBEAT_MS);
    heartbeat.unref();
  }
}

/** Work done on the heartbeat (re-checking access, presence) while streams are open. */
export function onHeartbeat(task: () => void): void {
  heartbeatTasks.push(task);
}

/** Called once per stream that ends, however it ends (live sessions mark the participant gone). */
export function onClose(listener: (conn: Connection) => void): void {
  closeListeners.push(listener);
}

function forget(conn: Connection): void {
  if (conn.closed) return;
  conn.closed = true;
  connections.delete(conn);
  bump(byKey, conn.key, -1);
  bump(byAddress, conn.address, -1);
  if (connections.size === 0 && heartbeat) {
    clearInterval(heartbeat);
    heartbeat = null;
  }
  for (const listener of closeListeners) {
    try {
      listener(conn);
    } catch (e) {
      console.error(e);
    }
  }
}

/** The browser went away (the stream was cancelled). */
export function dropped(conn: Connection): void {
  forget(conn);
}

/** Writes bytes, or closes a stream that has fallen too far behind. */
export function write(conn: Connection, bytes: Uint8Array): void {
  if (conn.closed || !conn.controller) return;
  if (conn.res && conn.res.writableLength > config.LIVE_SLOW_CLIENT_BYTES) {
    end(conn, 'too-slow');
    return;
  }
  try {
    conn.controller.enqueue(bytes);
  } catch {
    forget(conn);
  }
}

/** Ends a stream from the server's side, telling the tab why (null: the socket is just dropped). */
export function end(conn: Connection, reason: LiveClosed['reason'] | null): void {
  if (conn.closed) return;
  const controller = conn.controller;
  forget(conn);
  try {
    // Past the slow-client bound too: the reason is a few bytes behind whole messages.
    if (reason && controller) controller.enqueue(encodeMessage(null, 'closed', { reason } satisfies LiveClosed));
    controller?.close();
  } catch {
    /* already closed */
  }
  const res = conn.res;
  if (!reason) res?.destroy();
  else if (reason === 'too-slow' && res) {
    // What is queued goes out when the tab reads again; a tab that does not within a heartbeat
    // is let go (its browser reconnects from its last whole message when it notices).
    const timer = setTimeout(() => res.destroy(), config.LIVE_HEARTBEAT_MS);
    timer.unref();
    res.once('close', () => clearTimeout(timer));
  }
}

export function all(): ReadonlySet<Connection> {
  return connections;
}

export function count(): number {
  return connections.size;
}

export function find(id: string): Connection | undefined {
  for (const c of connections) if (c.id === id) return c;
  return undefined;
}

/** Whether another open stream of this person here has joined the session. */
export function inSession(key: string, sessionId: number, except?: Connection): boolean {
  for (const c of connections) if (c !== except && c.key === key && c.sessions.has(sessionId)) return true;
  return false;
}

/** Closes every stream (the process is stopping): tabs reconnect to another process. */
export function closeAll(): void {
  for (const c of [...connections]) end(c, 'shutdown');
}

// scripts/serve.mjs closes the streams when the process is asked to stop, so it need not wait
// for them (they would hold the server open until its 3 s fallback).
(globalThis as unknown as Record<symbol, () => void>)[Symbol.for('studio.live.closeAll')] = closeAll;
