// Rendered-HTML cache for public pages seen by anonymous visitors.
// Entries are keyed by path and theme class and stamped with the site version
// (src/server/site-version.ts); a request whose version differs re-renders. The version
// lives in the database, so invalidation holds across every process sharing it.
import { createHash } from 'node:crypto';
import { currentSiteVersion } from './site-version.ts';

export const CACHEABLE_PATHS = new Set(['/', '/portfolio', '/about', '/services', '/contact', '/privacy-policy']);
const MAX_ENTRIES = 64;
const MAX_BODY_BYTES = 2 * 1024 * 1024;

interface Entry {
  version: number;
  body: Uint8Array;
  etag: string;
  headers: [string, string][];
}

const entries = new Map<string, Entry>();

export function cacheKey(pathname: string, themeClass: string): string | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return CACHEABLE_PATHS.has(path) ? `${path}|${themeClass}` : null;
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
  const version = await currentSiteVersion();
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
  if (body.byteLength <= MAX_BODY_BYTES) {
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    entries.set(key, entry);
  }
  return respond(entry, request, 'MISS');
}
