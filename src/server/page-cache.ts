// Rendered-HTML cache for public pages seen by anonymous visitors.
// Entries are keyed by path, theme class and year (page-cache-key.ts) and stamped with the
// site version (src/server/site-version.ts); a request whose version differs re-renders. The
// version lives in the database, so invalidation holds across every process sharing it.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AstroCookies } from 'astro';
import { currentSiteVersion } from './site-version.ts';
import { SESSION_COOKIE } from './auth/sessions.ts';
import { SECURITY_HEADERS } from './security-headers.ts';
import { serverThemeClass } from './theme.ts';
import { CACHEABLE_PATHS, cacheKey, cacheablePath } from './page-cache-key.ts';
import { HSTS, isHttpsNode } from './proxy.ts';
import { config } from './config.ts';

export { CACHEABLE_PATHS, cacheKey, cacheablePath };
// Fixed pages, portfolio pages per category, and watch pages, each per theme.
const MAX_ENTRIES = 512;
const MAX_BODY_BYTES = 2 * 1024 * 1024;

interface Entry {
  version: number;
  body: Uint8Array;
  etag: string;
  headers: [string, string][];
  /** For the Node fast path (below). */
  nodeHeaders?: Record<string, string>;
  /** Compressed once per entry, so browsers (which all accept br/gzip) skip per-request compression. */
  encoded?: Partial<Record<Encoding, { body: Uint8Array; headers: Record<string, string> }>>;
}

type Encoding = 'br' | 'gzip';

const entries = new Map<string, Entry>();

// The cache's bytes, each page's HTML and its compressed copies together, kept within
// PAGE_CACHE_BYTES (issue 43): the oldest entries go first.
let cachedBytes = 0;
const bytesOf = (e: Entry) => e.body.byteLength + Object.values(e.encoded ?? {}).reduce((n, v) => n + v.body.byteLength, 0);

function store(key: string, entry: Entry): void {
  drop(key);
  entries.set(key, entry);
  cachedBytes += bytesOf(entry);
  withinBudget();
}

function drop(key: string): void {
  const old = entries.get(key);
  if (!old) return;
  entries.delete(key);
  cachedBytes -= bytesOf(old);
}

function withinBudget(): void {
  for (const key of entries.keys()) {
    if (cachedBytes <= config.PAGE_CACHE_BYTES && entries.size <= MAX_ENTRIES) return;
    drop(key);
  }
}

// Under load many requests want the version at once. They share one query, but only one that
// started after they arrived (a read begun earlier could miss a bump): while a read is in
// flight, newcomers wait together for the next one.
let inflight: Promise<number> | null = null;
let queued: Promise<number> | null = null;

function siteVersion(): Promise<number> {
  if (!inflight) {
    inflight = currentSiteVersion().finally(() => (inflight = null));
    return inflight;
  }
  queued ??= inflight
    .catch(() => undefined)
    .then(() => {
      queued = null;
      return siteVersion();
    });
  return queued;
}

function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag.replace(/^W\//, '') || t.trim() === '*');
}

function respond(entry: Entry, request: Request, cacheStatus: 'HIT' | 'MISS'): Response {
  const headers = new Headers(entry.headers);
  headers.set('ETag', entry.etag);
  headers.set('Cache-Control', 'public, max-age=0, must-revalidate');
  headers.set('X-Page-Cache', cacheStatus);
  if (etagMatches(request.headers.get('if-none-match'), entry.etag)) {
    return new Response(null, { status: 304, headers });
  }
  headers.set('Content-Length', String(entry.body.byteLength));
  return new Response(request.method === 'HEAD' ? null : (entry.body as BodyInit), { status: 200, headers });
}

/** Serves from the cache or renders via `render` and stores the result when it is cacheable. */
export async function cachedPage(key: string, request: Request, render: () => Promise<Response>): Promise<Response> {
  const version = await siteVersion();
  const hit = entries.get(key);
  if (hit && hit.version === version) return respond(hit, request, 'HIT');

  const response = await render();
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || !type.includes('text/html') || response.headers.has('set-cookie')) return response;
  const body = new Uint8Array(await response.arrayBuffer());
  const headers: [string, string][] = [...response.headers].filter(([k]) => !['content-length', 'transfer-encoding'].includes(k));
  const entry: Entry = {
    version,
    body,
    etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
    headers,
  };
  if (body.byteLength <= MAX_BODY_BYTES) store(key, entry);
  return respond(entry, request, 'MISS');
}

// ---------------------------------------------------------------------------------------
// Node fast path. Astro's request pipeline (static-file lookup, Request construction, route
// module import, middleware) costs far more than sending the cached bytes, so
// scripts/serve.mjs offers each request here first. Only what the middleware would serve
// from the cache anyway is answered: cacheable paths (cacheablePath: no query string but the
// portfolio's page and category), GET/HEAD, no session cookie, an entry of the current site version. Everything else (and the first
// render of each page) goes through Astro as before.

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      const value = part.slice(i + 1).trim();
      try {
        return decodeURIComponent(value); // as Astro's cookies read it
      } catch {
        return value;
      }
    }
  }
  return undefined;
}

const SESSION_NAMES = Object.values(SESSION_COOKIE);

/** The headers the middleware path would send with a HIT, built once per entry. */
function nodeHeaders(entry: Entry): Record<string, string> {
  const headers: Record<string, string> = Object.fromEntries(entry.headers);
  for (const [name, value] of SECURITY_HEADERS) headers[name.toLowerCase()] = value;
  headers.etag = entry.etag;
  headers['cache-control'] = 'public, max-age=0, must-revalidate';
  headers['x-page-cache'] = 'HIT';
  headers['content-length'] = String(entry.body.byteLength);
  return headers;
}

/** br, else gzip, when Accept-Encoding allows it (an explicit q=0 refuses). */
function pickEncoding(accept: string | string[] | undefined): Encoding | null {
  if (typeof accept !== 'string' || !accept) return null;
  const allowed = (name: Encoding) =>
    accept.split(',').some((part) => {
      const [token, ...params] = part.split(';');
      return token!.trim().toLowerCase() === name && !params.some((p) => /^\s*q=0(\.0*)?\s*$/i.test(p));
    });
  return allowed('br') ? 'br' : allowed('gzip') ? 'gzip' : null;
}

function encodedVariant(key: string, entry: Entry, encoding: Encoding) {
  entry.encoded ??= {};
  let variant = entry.encoded[encoding];
  if (!variant) {
    const body =
      encoding === 'br'
        ? brotliCompressSync(entry.body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9, [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT } })
        : gzipSync(entry.body, { level: 9 });
    const headers = { ...(entry.nodeHeaders ??= nodeHeaders(entry)) };
    headers['content-encoding'] = encoding;
    headers['content-length'] = String(body.byteLength);
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
    variant = entry.encoded[encoding] = { body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength), headers };
    if (entries.get(key) === entry) {
      cachedBytes += body.byteLength;
      withinBudget();
    }
  }
  return variant;
}

/** Answers from the cache and returns true, or returns false to let Astro handle the request. */
export async function serveCachedNode(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  // Also rules out percent-encodings and trailing slashes (those redirect, through Astro).
  if (path.length > 1 && path.endsWith('/')) return false;
  const search = q < 0 ? '' : url.slice(q);
  if (!cacheablePath(path, search)) return false;
  const cookie = req.headers.cookie;
  if (cookie && SESSION_NAMES.some((name) => cookieValue(cookie, name))) return false;
  const cookies = { get: (name: string) => ((v) => (v === undefined ? undefined : { value: v }))(cookieValue(cookie, name)) };
  const key = cacheKey(path, serverThemeClass(cookies as unknown as AstroCookies, path), new Date(), search);
  const hit = key ? entries.get(key) : undefined;
  if (!hit || hit.version !== (await siteVersion())) return false;

  let headers = (hit.nodeHeaders ??= nodeHeaders(hit));
  const https = isHttpsNode(req);
  if (https) headers = { ...headers, 'strict-transport-security': HSTS };
  const ifNoneMatch = req.headers['if-none-match'];
  if (etagMatches(typeof ifNoneMatch === 'string' ? ifNoneMatch : null, hit.etag)) {
    const { 'content-length': _length, ...notModified } = headers;
    res.writeHead(304, notModified).end();
    return true;
  }
  // Like the compression in scripts/serve.mjs: a range request gets the bytes as they are.
  const encoding = req.headers.range ? null : pickEncoding(req.headers['accept-encoding']);
  const variant = encoding ? encodedVariant(key!, hit, encoding) : { body: hit.body, headers };
  res.writeHead(200, https ? { ...variant.headers, 'strict-transport-security': HSTS } : variant.headers);
  res.end(req.method === 'HEAD' ? undefined : variant.body);
  return true;
}

// The built server bundles this module; serve.mjs finds the fast path through this symbol.
(globalThis as Record<symbol, unknown>)[Symbol.for('studio.pageCacheFastPath')] = serveCachedNode;
