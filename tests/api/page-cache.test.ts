import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { staffSession } from '../helpers/http.ts';
import { cacheKey } from '../../src/server/page-cache-key.ts';

let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  a = await startServer();
  // A second process on the same database and media folder (scaled out).
  b = await startServer({ dir: a.dir });
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

const get = (server: TestServer, path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers });

describe('public page cache', () => {
  test.each(['/', '/about', '/services', '/portfolio', '/contact', '/privacy-policy', '/terms-of-service'])('%s is cached for anonymous visitors with ETag and Cache-Control', async (path) => {
    const first = await get(a, path);
    await first.text();
    const second = await get(a, path);
    const body = await second.text();
    expect(second.status).toBe(200);
    expect(second.headers.get('x-page-cache')).toBe('HIT');
    expect(second.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect(second.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(second.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(second.headers.get('x-content-type-options')).toBe('nosniff');
    expect(body).toContain('<html');
  });

  test('If-None-Match with the current ETag answers 304 without a body', async () => {
    const first = await get(a, '/');
    await first.text();
    const etag = first.headers.get('etag')!;
    const res = await get(a, '/', { 'If-None-Match': etag });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe('');
  });

  test('a version bump from another process invalidates the cache in this one', async () => {
    await (await get(a, '/')).text();
    expect((await get(a, '/')).headers.get('x-page-cache')).toBe('HIT');
    // Process B (or any writer) bumps the shared stamp.
    await b.sql.execute('UPDATE site_state SET version = version + 1 WHERE id = 1');
    const after = await get(a, '/');
    expect(after.headers.get('x-page-cache')).toBe('MISS');
    expect((await get(a, '/')).headers.get('x-page-cache')).toBe('HIT');
  });

  test('the theme cookie gets its own entry (the html class differs)', async () => {
    const light = await get(a, '/about', { Cookie: 'studio-theme=light' });
    const html = await light.text();
    expect(html).not.toMatch(/<html[^>]*class="dark"/);
    const dark = await get(a, '/about', { Cookie: 'studio-theme=dark' });
    expect(await dark.text()).toMatch(/<html[^>]*class="dark"/);
  });

  test('signed-in staff get fresh pages, never the cache', async () => {
    const s = await staffSession(a.url, ADMIN.username, ADMIN.password);
    const res = await s.get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-page-cache')).toBeNull();
  });

  test('pages with a query string are rendered, not cached', async () => {
    const res = await get(a, '/?utm_source=x');
    expect(res.headers.get('x-page-cache')).toBeNull();
  });
});

describe('cache key', () => {
  // The footer prints the current year (000 §2) and nothing bumps the site version on
  // 1 January, so the key itself has to change with the year. The middleware and the Node
  // fast path both look entries up through this function.
  test('a new year is a new entry; path, trailing slash and theme as before', () => {
    const newYearsEve = new Date(2026, 11, 31, 23, 59, 59);
    const newYear = new Date(2027, 0, 1, 0, 0, 1);
    expect(cacheKey('/about', 'dark', newYearsEve)).not.toBe(cacheKey('/about', 'dark', newYear));
    expect(cacheKey('/about/', 'dark', newYear)).toBe(cacheKey('/about', 'dark', newYear));
    expect(cacheKey('/about', '', newYear)).not.toBe(cacheKey('/about', 'dark', newYear));
    expect(cacheKey('/auth', 'dark', newYear)).toBeNull();
    expect(cacheKey('/', 'dark')).toBe(cacheKey('/', 'dark', new Date()));
  });

  test('a cached page shows the current year in the footer', async () => {
    await (await get(a, '/contact')).text();
    const hit = await get(a, '/contact');
    expect(hit.headers.get('x-page-cache')).toBe('HIT');
    expect((await hit.text()).match(/data-testid="copyright"[^>]*>(?:&copy;|©) (\d{4}) /)?.[1]).toBe(String(new Date().getFullYear()));
  });
});

describe('compression', () => {
  test.each(['gzip', 'br'])('HTML is sent %s-compressed when the client accepts it, and decodes to the same page', async (encoding) => {
    const plain = await (await get(a, '/services')).text();
    const res = await fetch(a.url + '/services', { headers: { 'Accept-Encoding': encoding } });
    expect(res.headers.get('content-encoding')).toBe(encoding);
    // fetch decodes transparently: the page is unchanged.
    expect(await res.text()).toBe(plain);
  });

  test('range requests and media are not compressed', async () => {
    const res = await fetch(a.url + '/services', { headers: { 'Accept-Encoding': 'gzip', Range: 'bytes=0-99' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    await res.text();
  });
});

// PAGE_CACHE_BYTES (issue 43): the cache keeps within its byte budget, dropping the oldest pages
// first. The budget is made from the sizes of three pages as process A renders them (no
// compressed copies: identity encoding), so the third page cannot fit beside the first two.
describe('the page cache keeps within PAGE_CACHE_BYTES', () => {
  const plain = { 'Accept-Encoding': 'identity' };
  const pages = ['/about', '/services', '/privacy-policy'];
  let c: TestServer | undefined;
  afterAll(async () => {
    await c?.stop();
  });

  test('the oldest page goes when a new one would pass the budget; the rest stay', async () => {
    const sizes: number[] = [];
    for (const p of pages) sizes.push((await (await get(a, p, plain)).arrayBuffer()).byteLength);
    const budget = sizes[0]! + sizes[1]! + Math.floor(sizes[2]! / 2);
    c = await startServer({ env: { PAGE_CACHE_BYTES: String(budget) } });
    for (const p of pages.slice(0, 2)) await (await get(c, p, plain)).arrayBuffer();
    // Both fit.
    expect((await get(c, pages[0]!, plain)).headers.get('x-page-cache')).toBe('HIT');
    expect((await get(c, pages[1]!, plain)).headers.get('x-page-cache')).toBe('HIT');
    await (await get(c, pages[2]!, plain)).arrayBuffer();
    // The third pushed the oldest out; the two newest are still served from the cache.
    expect((await get(c, pages[1]!, plain)).headers.get('x-page-cache')).toBe('HIT');
    expect((await get(c, pages[2]!, plain)).headers.get('x-page-cache')).toBe('HIT');
    expect((await get(c, pages[0]!, plain)).headers.get('x-page-cache')).toBe('MISS');
  });
});
