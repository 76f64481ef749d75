// A tiny cookie-keeping HTTP client for API tests (same-origin headers like a browser).
import http from 'node:http';

/**
 * One request through node:http from a chosen loopback address (all of 127.0.0.0/8 reaches a
 * server on 127.0.0.1), so tests can play several client addresses without trusting any
 * forwarding header. Answers a fetch Response.
 */
function requestFrom(localAddress: string, url: string, init: { method: string; headers: Record<string, string>; body?: BodyInit }): Promise<Response> {
  return new Promise((resolve, reject) => {
    const body = init.body === undefined ? undefined : typeof init.body === 'string' ? Buffer.from(init.body) : Buffer.from(init.body as Uint8Array);
    const req = http.request(url, { method: init.method, localAddress, agent: false, headers: { ...init.headers, ...(body ? { 'Content-Length': String(body.length) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) headers.append(k, one);
        const status = res.statusCode!;
        resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers }));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export class Session {
  cookies = new Map<string, string>();
  /**
   * `from`: the loopback address requests come from (node:http); fetch's default otherwise.
   * `timeoutMs`: a request without an answer by then fails, naming itself (fetch only).
   */
  constructor(
    public readonly base: string,
    public readonly from?: string,
    public readonly timeoutMs?: number,
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const h: Record<string, string> = { Origin: this.base, ...headers };
    const c = this.cookieHeader();
    if (c) h.Cookie = c;
    let payload: BodyInit | undefined;
    if (body instanceof FormData || typeof body === 'string' || body instanceof Uint8Array) {
      payload = body as BodyInit;
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      h['Content-Type'] ??= 'application/json';
    }
    if (this.from && payload instanceof FormData) throw new Error('multipart bodies are sent with fetch only');
    const res = this.from
      ? await requestFrom(this.from, this.base + path, { method, headers: h, body: payload })
      : await fetch(this.base + path, { method, headers: h, body: payload, redirect: 'manual', signal: this.timeoutMs ? AbortSignal.timeout(this.timeoutMs) : undefined }).catch((e) => {
          if (e?.name !== 'TimeoutError') throw e;
          throw new Error(`${method} ${path} had no answer within ${this.timeoutMs} ms`);
        });
    for (const raw of res.headers.getSetCookie()) {
      const [pair] = raw.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      if (value === '' || /max-age=0/i.test(raw)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  get = (path: string, headers?: Record<string, string>) => this.request('GET', path, undefined, headers);
  post = (path: string, body?: unknown, headers?: Record<string, string>) => this.request('POST', path, body, headers);
  put = (path: string, body?: unknown, headers?: Record<string, string>) => this.request('PUT', path, body, headers);
  patch = (path: string, body?: unknown, headers?: Record<string, string>) => this.request('PATCH', path, body, headers);
  delete = (path: string, headers?: Record<string, string>) => this.request('DELETE', path, undefined, headers);

  async json<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await this.request(method, path, body);
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* keep text */
    }
    return { status: res.status, body: parsed };
  }
}

/** Signs a staff user in and returns the session. Throws unless the answer is 200. */
export async function staffSession(base: string, username: string, password: string, timeoutMs?: number): Promise<Session> {
  const s = new Session(base, undefined, timeoutMs);
  const res = await s.post('/api/login', { username, password });
  if (res.status !== 200) throw new Error(`staff login failed for ${username}: ${res.status} ${await res.text()}`);
  return s;
}

/** Signs a client user in and returns the session. */
export async function clientSession(base: string, username: string, password: string, timeoutMs?: number): Promise<Session> {
  const s = new Session(base, undefined, timeoutMs);
  const res = await s.post('/api/client/login', { username, password });
  if (res.status !== 200) throw new Error(`client login failed for ${username}: ${res.status} ${await res.text()}`);
  return s;
}
