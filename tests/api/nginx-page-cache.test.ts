// nginx's one-second cache of public pages (issue 33: cached `/` through nginx at least 0.8x of
// the app directly), in the shipped deploy/nginx/studio.conf. Only what the app marks as a
// shared public page (X-Page-Cache) is stored; a session cookie always reaches the app; the
// theme cookie is part of the key; an edit shows within the second; private answers are never
// stored, whoever asks.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, ROOT, startServer, type TestServer } from '../helpers/server.ts';
import { CACHEABLE_PATHS, cacheablePath } from '../../src/server/page-cache-key.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin } from '../helpers/accounts.ts';
import { startNginx, type Nginx } from '../helpers/nginx.ts';
import { uploadImage } from '../helpers/media-uploads.ts';
import { until } from '../helpers/until.ts';

let server: TestServer;
let proxy: Nginx;
let admin: Session;
let client: Session;

beforeAll(async () => {
  server = await startServer({ env: { WORKER: 'off', TRUST_PROXY: 'true' } });
  proxy = await startNginx([server.port]);
  admin = await staffSession(proxy.url, ADMIN.username, ADMIN.password);
  const c = await createClientWithLogin(server, { name: 'Cache Client' });
  client = await clientSession(proxy.url, c.username, c.password);
}, 120_000);

afterAll(async () => {
  await proxy?.stop();
  await server?.stop();
});

/** Requests for `uri` in nginx's access log that went to the app (an upstream address, not `-`). */
const reachedApp = (uri: string) => proxy.accessLog().filter((l) => l.startsWith(`GET ${uri} `) && !l.endsWith(' -')).length;

let markers = 0;
/**
 * How many requests for `uri` reached the app, once at least `expected` are in nginx's log
 * (it writes a line after the answer has gone, and the tests do not always read a body to its
 * end): fewer is a failure naming them, not a count to compare. Then a marker, a request nginx
 * answers itself (a missing /_astro/ file), lets any further line for `uri` already on its way
 * in first: one worker process handles requests in turn.
 */
async function appRequests(uri: string, expected: number): Promise<number> {
  await until(`${expected} requests for ${uri} to reach the app in nginx's log`, async () => reachedApp(uri) >= expected, 10_000);
  const marker = `/_astro/log-marker-${++markers}.js`;
  expect((await get(marker)).status).toBe(404);
  await until(`nginx's log line for ${marker}`, async () => proxy.accessLog().some((l) => l.startsWith(`GET ${marker} `)), 10_000);
  return reachedApp(uri);
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(proxy.url + path, { headers });

describe("the cached location's paths", () => {
  const conf = fs.readFileSync(path.join(ROOT, 'deploy/nginx/studio.conf'), 'utf8');
  const pattern = /location ~ (\^\S+\$) \{\n\s+proxy_cache studio_pages;/.exec(conf)?.[1];
  const cachedLocation = new RegExp(pattern!);

  test.each([...CACHEABLE_PATHS, '/portfolio/brand-film-2', '/portfolio/a'])('%s, a page the app caches, is in it', (p) => {
    expect(cacheablePath(p)).toBe(p);
    expect(cachedLocation.test(p)).toBe(true);
  });

  test.each(['/s/abc', '/api/media', '/media/k/original.mp4', '/admin/dashboard', '/client/dashboard', '/auth', '/portfolio/a/b', '/robots.txt', '/sitemap-index.xml'])(
    '%s, which the app does not cache, is not (files keep their Range and If-* headers)',
    (p) => {
      expect(cacheablePath(p)).toBeNull();
      expect(cachedLocation.test(p)).toBe(false);
    },
  );
});

describe('public pages through nginx', () => {
  test('an anonymous page is asked of the app once, then answered by nginx with the same body and validator', async () => {
    const first = await get('/about');
    const body = await first.text();
    expect(first.status).toBe(200);
    const again = await get('/about');
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(await again.text()).toBe(body);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await appRequests('/about', 1)).toBe(1);
    // A browser's revalidation is answered by nginx too.
    const notModified = await get('/about', { 'If-None-Match': first.headers.get('etag')! });
    expect(notModified.status).toBe(304);
    expect(await appRequests('/about', 1)).toBe(1);
  });

  test('the theme cookie is part of the key: light and dark pages are kept apart', async () => {
    const dark = await (await get('/services', { Cookie: 'studio-theme=dark' })).text();
    const light = await (await get('/services', { Cookie: 'studio-theme=light' })).text();
    const lightAgain = await get('/services', { Cookie: 'other=1; studio-theme=light' });
    expect(lightAgain.headers.get('x-cache')).toBe('HIT');
    const htmlClass = (html: string) => / class="([^"]*)"/.exec(html.slice(html.indexOf('<html')))![1]!.split(' ');
    expect(htmlClass(dark)).toContain('dark');
    expect(htmlClass(light)).not.toContain('dark');
    expect(htmlClass(await lightAgain.text())).not.toContain('dark');
  });

  test('compressed and plain answers follow Accept-Encoding (Vary), never a brotli body to a client that did not ask', async () => {
    const br = await fetch(proxy.url + '/contact', { headers: { 'Accept-Encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    // node's fetch always sends Accept-Encoding; a raw request shows what a plain client gets.
    const plain = await rawGet('/contact');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('</html>');
    expect(String(plain.headers.vary)).toMatch(/Accept-Encoding/i);
  });

  test.each([
    ['staff', () => admin],
    ['client', () => client],
  ])('a signed-in %s always reaches the app, and their page is never stored for others', async (_who, who) => {
    const before = await appRequests('/', 0);
    const mine = await who().get('/');
    const again = await who().get('/');
    expect(mine.status).toBe(200);
    expect(again.headers.get('x-cache')).toBe('BYPASS');
    expect(await appRequests('/', before + 2)).toBe(before + 2);
    // An anonymous visitor right after is not served the signed-in page.
    const anon = await (await get('/')).text();
    expect(anon).not.toContain(who() === admin ? ADMIN.username : 'Cache Client');
  });

  test.each(['/api/media', '/admin/dashboard', '/client/dashboard', '/api/user'])('%s is never stored, even asked twice with the same session', async (path) => {
    const session = path.startsWith('/client') ? client : admin;
    const before = await appRequests(path, 0);
    await session.get(path);
    const second = await session.get(path);
    expect(second.headers.get('x-cache')).not.toBe('HIT');
    expect(await appRequests(path, before + 2)).toBe(before + 2);
    // Nor for a visitor without a session, who must get the app's own refusal each time.
    const anon = await get(path, { Accept: 'application/json' });
    expect(anon.headers.get('x-cache')).not.toBe('HIT');
    expect(await appRequests(path, before + 3)).toBe(before + 3);
  });

  test("a share link's pages and API, opened with a visitor pass (not a session), are never stored for the next visitor", async () => {
    const image = await uploadImage(admin, { title: 'Unreleased still' });
    const made = await admin.json('POST', '/api/share-links', { name: 'Cache check', mediaIds: [image.id], password: 'open-sesame' });
    expect(made.status).toBe(201);
    const token = new URL(made.body.url).pathname.split('/').pop()!;
    const guest = new Session(proxy.url);
    expect((await guest.json('POST', `/api/share/${token}/unlock`, { password: 'open-sesame' })).status).toBe(200);
    for (const path of [`/s/${token}`, `/api/share/${token}`]) {
      const before = await appRequests(path, 0);
      const mine = [await guest.get(path), await guest.get(path)];
      expect(mine.map((r) => r.status)).toEqual([200, 200]);
      expect(mine[1]!.headers.get('x-cache')).not.toBe('HIT');
      const stranger = await new Session(proxy.url).get(path);
      expect(stranger.headers.get('x-cache')).not.toBe('HIT');
      expect(await appRequests(path, before + 3)).toBe(before + 3);
      if (path.startsWith('/api/')) expect(stranger.status).toBe(401);
      else expect(await stranger.text()).toContain('This link is protected');
    }
  });

  test.each(['/auth', '/portfolio?utm_source=newsletter', '/robots.txt'])('%s, answered 200 to anyone but not one of the shared pages, still reaches the app each time', async (url) => {
    const path = url.split('?')[0]!;
    const before = await appRequests(path, 0);
    for (let i = 0; i < 2; i++) expect((await get(url)).status).toBe(200);
    expect(await appRequests(path, before + 2)).toBe(before + 2);
  });

  test('an edit shows through nginx within the cache second', async () => {
    const phone = `0116 496 ${String(Date.now()).slice(-4)}`;
    await get('/contact');
    expect(await (await get('/contact')).text()).not.toContain(phone);
    const res = await admin.put('/api/contact-info', { contactEmail: 'hello@studio.example', contactPhone: phone, contactAddress: '1 Mill Lane', instagramUrl: '', facebookUrl: '', linkedinUrl: '' });
    expect(res.status).toBe(200);
    // One second of validity, then the request that refreshes it in the background.
    await until('the new phone number through nginx', async () => (await (await get('/contact')).text()).includes(phone), 5_000);
  });
});

/** A GET without Accept-Encoding (node's fetch cannot leave it out). */
async function rawGet(path: string): Promise<{ headers: Record<string, string | string[] | undefined>; body: string }> {
  const http = await import('node:http');
  return new Promise((resolve, reject) => {
    http
      .get(proxy.url + path, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ headers: res.headers, body }));
      })
      .on('error', reject);
  });
}
