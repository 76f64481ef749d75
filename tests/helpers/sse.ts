// A Server-Sent Events client for API tests and benches (issue 41): opens a stream with a
// session's cookies through node:http (from a chosen loopback address when asked), parses its
// messages and lets a test wait for one by condition, woken by each message as it arrives.
import http from 'node:http';
import type { Session } from './http.ts';

export interface SseMessage {
  id: number | null;
  event: string;
  data: any;
  /** When it arrived (performance.now()). */
  at: number;
}

type Waiter = { test: (m: SseMessage) => boolean; resolve: (m: SseMessage) => void; from: number };

export class EventStream {
  readonly messages: SseMessage[] = [];
  status = 0;
  /** The error body when the server refused the stream. */
  refusal: any = null;
  ended = false;
  #req: http.ClientRequest | null = null;
  #waiters: Waiter[] = [];
  #endWaiters: (() => void)[] = [];

  /** The first message: `hello` (connection id, resumed, open sessions). */
  get hello(): any {
    return this.messages.find((m) => m.event === 'hello')?.data;
  }

  get lastId(): number | null {
    for (let i = this.messages.length - 1; i >= 0; i--) if (this.messages[i]!.id !== null) return this.messages[i]!.id;
    return null;
  }

  /** Messages of a topic (after index `from`). */
  of(event: string, from = 0): SseMessage[] {
    return this.messages.slice(from).filter((m) => m.event === event);
  }

  /** Resolves with the first message from index `from` on that passes `test` (already here or yet to come). */
  waitFor(what: string, test: (m: SseMessage) => boolean, from = 0, timeoutMs = 15_000): Promise<SseMessage> {
    const hit = this.messages.slice(from).find(test);
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.messages.slice(from).map((m) => [m.id, m.event, m.data?.type ?? m.data?.change]))}`));
      }, timeoutMs);
      const waiter: Waiter = {
        test,
        from,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      this.#waiters.push(waiter);
    });
  }

  /** Resolves when the server ends the stream. */
  whenEnded(timeoutMs = 15_000): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for the stream to end')), timeoutMs);
      this.#endWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  #push(m: SseMessage) {
    this.messages.push(m);
    const index = this.messages.length - 1;
    for (const w of [...this.#waiters]) {
      if (index >= w.from && w.test(m)) {
        this.#waiters = this.#waiters.filter((x) => x !== w);
        w.resolve(m);
      }
    }
  }

  #end() {
    if (this.ended) return;
    this.ended = true;
    for (const f of this.#endWaiters.splice(0)) f();
  }

  close(): void {
    this.#req?.destroy();
    this.#end();
  }

  /** Opens `path` with the session's cookies; resolves once the answer's head (and any refusal body) is in. */
  static open(session: Pick<Session, 'base' | 'cookieHeader'>, path: string, opts: { lastEventId?: number | null; from?: string; headers?: Record<string, string> } = {}): Promise<EventStream> {
    const s = new EventStream();
    const headers: Record<string, string> = { Accept: 'text/event-stream', ...opts.headers };
    const cookie = session.cookieHeader();
    if (cookie) headers.Cookie = cookie;
    if (opts.lastEventId != null) headers['Last-Event-ID'] = String(opts.lastEventId);
    return new Promise((resolve, reject) => {
      const req = http.request(session.base + path, { method: 'GET', headers, agent: false, ...(opts.from ? { localAddress: opts.from } : {}) }, (res) => {
        s.status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        if (s.status !== 200) {
          let text = '';
          res.on('data', (c: string) => (text += c));
          res.on('end', () => {
            try {
              s.refusal = JSON.parse(text);
            } catch {
              s.refusal = text;
            }
            s.#end();
            resolve(s);
          });
          return;
        }
        let buffer = '';
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            let id: number | null = null;
            let event = 'message';
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith(':') || line === '') continue;
              const i = line.indexOf(':');
              const field = i < 0 ? line : line.slice(0, i);
              const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
              if (field === 'id') id = Number(value);
              else if (field === 'event') event = value;
              else if (field === 'data') data.push(value);
            }
            if (!data.length) continue;
            let parsed: any = data.join('\n');
            try {
              parsed = JSON.parse(parsed);
            } catch {
              /* keep text */
            }
            s.#push({ id, event, data: parsed, at: performance.now() });
          }
        });
        res.on('end', () => s.#end());
        res.on('close', () => s.#end());
        resolve(s);
      });
      s.#req = req;
      req.on('error', (e) => {
        if (s.status) s.#end();
        else reject(e);
      });
      req.end();
    });
  }
}

/** Opens a stream and waits for its hello; fails with the server's answer when refused. */
export async function openStream(session: Pick<Session, 'base' | 'cookieHeader'>, path: string, opts: Parameters<typeof EventStream.open>[2] = {}): Promise<EventStream> {
  const s = await EventStream.open(session, path, opts);
  if (s.status !== 200) throw new Error(`stream ${path} refused: ${s.status} ${JSON.stringify(s.refusal)}`);
  await s.waitFor('hello', (m) => m.event === 'hello');
  return s;
}
