// One Server-Sent Events stream per browser tab (issue 41). A tab that reconnects sends the
// last id it received (Last-Event-ID, which EventSource sends by itself) and gets every event
// after it that is for it, from the table, without repeats or gaps; when those rows are gone
// (older than LIVE_RETENTION_MS, or too many), its hello says `resumed: false` and it loads its
// screen again.
import { randomBytes } from 'node:crypto';
import { HttpError } from '../http.ts';
import { currentNodeResponse } from '../media/node-response.ts';
import type { LiveHello } from '../../shared/schemas/live.ts';
import { FactsCache } from './audience.ts';
import * as hub from './hub.ts';
import { headId, oldestId, readAfter, READ_BATCH } from './log.ts';
import { principalKey, type LivePrincipal } from './principal.ts';
import { openSessionsFor } from './sessions.ts';
import { deliver, ensureRunning, messageFor } from './tail.ts';
import './presence.ts';

export const STREAM_LIMIT_MESSAGE: Record<Exclude<hub.LimitHit, null>, string> = {
  user: 'Too many open live connections for your account: close a few tabs and try again.',
  address: 'Too many open live connections from your address. Please try again later.',
  process: 'The server is holding as many live connections as it can. Please try again in a moment.',
};

/** How long a browser waits before reconnecting after a dropped stream. */
const RETRY_MS = 2000;

function lastEventId(request: Request): number | null {
  const raw = request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get('lastEventId');
  return raw && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}

export async function openStream(request: Request, principal: LivePrincipal, address: string): Promise<Response> {
  const key = principalKey(principal);
  const hit = hub.limitFor(key, address);
  if (hit) throw new HttpError(hit === 'process' ? 503 : 429, STREAM_LIMIT_MESSAGE[hit]);
  const since = lastEventId(request);
  const conn: hub.Connection = {
    id: randomBytes(16).toString('base64url'),
    principal,
    key,
    address,
    res: currentNodeResponse(),
    controller: null,
    lastSentId: 0,
    pending: [],
    sessions: new Map(),
    closed: false,
  };
  const body = new ReadableStream<Uint8Array>(
    {
      // Runs at once, inside the constructor: the stream is counted (and the tailer kept
      // running for it) before anything can be awaited.
      start(controller) {
        conn.controller = controller;
        hub.register(conn);
        controller.enqueue(new TextEncoder().encode(`retry: ${RETRY_MS}\n\n`));
        void replay(conn, since).catch((e) => {
          console.error('live: opening a stream', e);
          hub.end(conn, null);
        });
      },
      cancel() {
        hub.dropped(conn);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      // nginx passes each message on at once (deploy/nginx/studio.conf says so too).
      'X-Accel-Buffering': 'no',
    },
  });
}

/** The hello, then what the tab missed, then what the tailer handed over meanwhile. */
async function replay(conn: hub.Connection, since: number | null): Promise<void> {
  // The tailer's cursor is set before the table is read here, so every row is either read
  // below or handed over by the tailer (into `pending`), never neither.
  await ensureRunning();
  let rows: Awaited<ReturnType<typeof readAfter>> = [];
  let resumed = false;
  if (since !== null) {
    const oldest = await oldestId();
    // Rows after `since` are all still there: the oldest kept is right after it or older (an
    // empty table has lost nothing only when nothing was written after it).
    const intact = oldest === null ? since >= (await headId()) : oldest <= since + 1;
    if (intact) {
      rows = await readAfter(since, READ_BATCH + 1);
      resumed = rows.length <= READ_BATCH;
    }
  }
  if (!resumed) {
    rows = [];
    conn.lastSentId = await headId();
  } else {
    conn.lastSentId = since!;
  }
  const hello: LiveHello = { connection: conn.id, resumed, serverTime: Date.now(), sessions: await openSessionsFor(conn.principal) };
  hub.write(conn, hub.encodeMessage(null, 'hello', hello));
  const facts = new FactsCache();
  for (const row of rows) {
    const itemFacts = await facts.of(row);
    deliver(conn, row, itemFacts, () => messageFor(row), true);
  }
  const pending = conn.pending ?? [];
  conn.pending = null;
  for (const p of pending) {
    if (p.id <= conn.lastSentId) continue;
    conn.lastSentId = p.id;
    if (p.bytes) hub.write(conn, p.bytes);
  }
}
