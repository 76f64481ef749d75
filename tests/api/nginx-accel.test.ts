// nginx sends the bytes (issue 33): one web process with ACCEL_REDIRECT=true behind Debian's
// nginx running the shipped deploy/nginx/studio.conf (tests/helpers/nginx.ts rewrites only its
// ports and folders). The app checks access exactly as before and answers X-Accel-Redirect to
// the internal /_protected/ location; nginx sends the file (ranges, 304s); refusals stay the
// app's 404s; nobody reaches /_protected/ directly; /_astro/ assets come from disk,
// precompressed, cached for a year; a share link's byte-0 transfer is still logged.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, OUT_DIR, startServer, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin } from '../helpers/accounts.ts';
import { insertMedia } from '../helpers/public-media.ts';
import { startNginx, type Nginx } from '../helpers/nginx.ts';
import { firstByteSent, RANGE_VARIANTS } from '../helpers/range-variants.ts';
import { upload, uploadImage } from '../helpers/media-uploads.ts';
import { waitSettled } from '../helpers/processing.ts';
import { unevenSource } from '../helpers/video-sources.ts';
import { parseMaster, parseMedia } from '../helpers/hls.ts';
import { createGallery, enterLink, galleryLink } from '../helpers/proofing.ts';

let server: TestServer;
let proxy: Nginx;
let admin: Session; // through nginx
let clientA: Session; // through nginx
let priv: { id: number; storageKey: string; url: string }; // private video, assigned to client B
let image: any; // public image (portfolio), uploaded through nginx
let bytes: Buffer;

const YEAR_IMMUTABLE = 'public, max-age=31536000, immutable';

beforeAll(async () => {
  server = await startServer({ env: { WORKER: 'off', TRUST_PROXY: 'true', ACCEL_REDIRECT: 'true' } });
  proxy = await startNginx([server.port], { mediaDir: server.mediaDir });
  admin = await staffSession(proxy.url, ADMIN.username, ADMIN.password);
  priv = await insertMedia(server.sql, server.mediaDir, { title: 'Private cut', withFile: true });
  bytes = fs.readFileSync(path.join(server.mediaDir, priv.storageKey, 'original.mp4'));
  const b = await createClientWithLogin(server, { name: 'Client B' });
  await server.sql.execute({ sql: 'UPDATE media SET client_id = ? WHERE id = ?', args: [b.clientId, priv.id] });
  const a = await createClientWithLogin(server, { name: 'Client A' });
  clientA = await clientSession(proxy.url, a.username, a.password);
  image = await uploadImage(admin, { title: 'Public still' });
  await server.sql.execute({ sql: 'UPDATE media SET show_in_portfolio = 1 WHERE id = ?', args: [image.id] });
}, 120_000);

afterAll(async () => {
  await proxy?.stop();
  await server?.stop();
});

/** The app's own answer, asked directly on its port (what nginx reads and never passes on). */
const direct = (s: Session, url: string, headers: Record<string, string> = {}) => fetch(server.url + url, { headers: { Cookie: s.cookieHeader(), ...headers } });

describe('ACCEL_REDIRECT behind the shipped nginx', () => {
  test("the app's answer names the internal location and carries type, disposition, cache and Vary, no body and no validators", async () => {
    const res = await direct(admin, `${priv.url}?download=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-accel-redirect')).toBe(`/_protected/${priv.storageKey}/original.mp4`);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('vary')).toBe('Cookie');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('etag')).toBeNull();
    expect(res.headers.get('content-encoding')).toBeNull();
    expect((await res.arrayBuffer()).byteLength).toBe(0);
    // A public derivative: its year-long cache goes to nginx the same way.
    const thumb = await direct(new Session(server.url), image.thumbnailUrl.split('?')[0]);
    expect(thumb.headers.get('x-accel-redirect')).toBe(`/_protected/${image.url.split('/')[2]}/thumb.jpg`);
    expect(thumb.headers.get('cache-control')).toBe(YEAR_IMMUTABLE);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
  });

  test('staff fetch a private original through nginx byte-identical, with nginx validators equal to the app-computed ones', async () => {
    const res = await admin.get(`${priv.url}?download=1`);
    expect(res.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), bytes)).toBe(0);
    expect(res.headers.get('server')).toMatch(/^nginx/);
    expect(res.headers.get('x-accel-redirect')).toBeNull();
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('vary')).toBe('Cookie');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const stat = fs.statSync(path.join(server.mediaDir, priv.storageKey, 'original.mp4'));
    const etag = `"${Math.floor(stat.mtimeMs / 1000).toString(16)}-${stat.size.toString(16)}"`;
    expect(res.headers.get('etag')).toBe(etag);
    expect(res.headers.get('last-modified')).toBe(new Date(Math.floor(stat.mtimeMs / 1000) * 1000).toUTCString());
    // The access log: the media request went to the app once, nothing else.
    expect(proxy.accessLog().filter((l) => l.includes(priv.storageKey)).at(-1)).toMatch(/^GET \/_protected\/\w+\/original\.mp4 200 127\.0\.0\.1:\d+$/);
  });

  test('ranges (206, 416), If-None-Match (304) and If-Range through nginx', async () => {
    const part = await admin.get(priv.url, { Range: 'bytes=100-1099' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${bytes.length}`);
    expect(Buffer.compare(Buffer.from(await part.arrayBuffer()), bytes.subarray(100, 1100))).toBe(0);
    const suffix = await admin.get(priv.url, { Range: 'bytes=-10' });
    expect(suffix.status).toBe(206);
    expect(Buffer.compare(Buffer.from(await suffix.arrayBuffer()), bytes.subarray(bytes.length - 10))).toBe(0);
    expect((await admin.get(priv.url, { Range: `bytes=${bytes.length}-` })).status).toBe(416);

    const etag = (await admin.get(priv.url)).headers.get('etag')!;
    const again = await admin.get(priv.url, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('private, no-store');
    expect((await admin.get(priv.url, { 'If-None-Match': '"other"' })).status).toBe(200);
    // If-Range with the current tag: the range; with a stale one: the whole file.
    expect((await admin.get(priv.url, { Range: 'bytes=0-9', 'If-Range': etag })).status).toBe(206);
    expect((await admin.get(priv.url, { Range: 'bytes=0-9', 'If-Range': '"stale-1"' })).status).toBe(200);
  });

  // Issue 40: the playlists and ranges the pipeline itself wrote (a hand-written playlist
  // proved only that nginx sends a file). A server of its own with the worker on, so the
  // conversion touches nothing the other tests here look at.
  test('the HLS playlists the pipeline wrote, and every byte range they name, through nginx; refused where the video is', { timeout: 180_000 }, async () => {
    const own = await startServer({ env: { TRUST_PROXY: 'true', ACCEL_REDIRECT: 'true', JOB_POLL_MS: '200' } });
    let ownProxy: Nginx | undefined;
    try {
      ownProxy = await startNginx([own.port], { mediaDir: own.mediaDir });
      const staff = await staffSession(ownProxy.url, ADMIN.username, ADMIN.password);
      const source = unevenSource('avi');
      const up = await upload(staff, { title: 'Streamed cut' }, { data: fs.readFileSync(source), name: 'streamed.avi' });
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      const live = await waitSettled(staff, up.body.id, 150_000);
      expect(live.processingStatus, live.processingError ?? '').toBe('ready');
      const key = /\/media\/([a-f0-9]{32})\//.exec(live.streamUrl)![1]!;
      const stored = (name: string) => fs.readFileSync(path.join(own.mediaDir, key, name));

      // The master, then each size's media playlist: nginx sends the stored file with the type.
      const masterPath = live.streamUrl as string;
      const app = await fetch(own.url + masterPath, { headers: { Cookie: staff.cookieHeader() } });
      expect(app.headers.get('x-accel-redirect')).toBe(`/_protected/${key}/master.m3u8`);
      const master = await staff.get(masterPath);
      expect([master.status, master.headers.get('server')?.startsWith('nginx'), master.headers.get('content-type')]).toEqual([200, true, 'application/vnd.apple.mpegurl']);
      const masterText = await master.text();
      expect(masterText).toBe(stored('master.m3u8').toString('utf8'));
      const entries = parseMaster(masterText);
      expect(entries.length).toBeGreaterThan(0);
      for (const entry of entries) {
        const at = new URL(entry.uri, new URL(masterPath, ownProxy.url));
        const res = await staff.get(at.pathname + at.search);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
        const text = await res.text();
        expect(text).toBe(stored(at.pathname.split('/').pop()!).toString('utf8'));
        const pl = parseMedia(text);
        expect(pl.segments.length).toBeGreaterThanOrEqual(3);
        const fileUrl = new URL(pl.map.uri, at);
        const file = stored(fileUrl.pathname.split('/').pop()!);
        // Every range it names, asked of nginx as a player does: the file's own bytes, init first.
        for (const [offset, length, box] of [[pl.map.offset, pl.map.length, 'ftyp'], ...pl.segments.map((x) => [x.offset, x.length, 'moof'] as const)] as const) {
          const part = await staff.get(fileUrl.pathname + fileUrl.search, { Range: `bytes=${offset}-${offset + length - 1}` });
          expect(part.status).toBe(206);
          expect(part.headers.get('server')).toMatch(/^nginx/);
          const got = Buffer.from(await part.arrayBuffer());
          expect(got.equals(file.subarray(offset, offset + length)), `bytes ${offset}+${length}`).toBe(true);
          expect(got.toString('latin1', 4, 8)).toBe(box);
        }
      }
      // Refused where the video is: nobody else gets its playlists.
      expect((await new Session(ownProxy.url).get(masterPath)).status).toBe(404);
    } finally {
      await ownProxy?.stop();
      await own.stop();
    }
  });

  test('a public thumbnail through nginx: anyone, a year immutable, 304 on its tag', async () => {
    const anon = new Session(proxy.url);
    const url = image.thumbnailUrl as string;
    const res = await anon.get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe(YEAR_IMMUTABLE);
    expect(res.headers.get('vary')).toBeNull();
    const stored = fs.readFileSync(path.join(server.mediaDir, image.url.split('/')[2], 'thumb.jpg'));
    expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), stored)).toBe(0);
    const again = await anon.get(url, { 'If-None-Match': res.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect((await anon.get(url, { Range: 'bytes=0-99' })).status).toBe(206);
  });

  test('refusals are still the app\'s 404s: private item without a session, another client\'s file', async () => {
    for (const [s, headers] of [
      [new Session(proxy.url), {}],
      [new Session(proxy.url), { Range: 'bytes=0-' }],
      [clientA, {}],
      [clientA, { 'If-None-Match': '*' }],
    ] as const) {
      const res = await s.get(priv.url, headers);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await res.text()).includes('Not found')).toBe(true);
      // The app refused: no internal redirect was asked for.
      const own = await direct(s, priv.url, headers);
      expect(own.status).toBe(404);
      expect(own.headers.get('x-accel-redirect')).toBeNull();
    }
  });

  test('a request straight to the internal location is 404 from nginx, whoever asks', async () => {
    for (const s of [new Session(proxy.url), admin]) {
      for (const p of [`/_protected/${priv.storageKey}/original.mp4`, `/_protected/${image.url.split('/')[2]}/thumb.jpg`, '/_protected/', '/_protected/../etc/passwd']) {
        const res = await s.get(p);
        expect(res.status, p).toBe(404);
        expect(res.headers.get('server')).toMatch(/^nginx/);
        const body = Buffer.from(await res.arrayBuffer());
        expect(body.includes(bytes.subarray(0, 64))).toBe(false);
      }
    }
    // nginx answered those itself: none reached the app.
    expect(proxy.accessLog().filter((l) => /^GET \/_protected\/ 404|^GET \/_protected\/\w+\/\S+ 404/.test(l)).every((l) => l.endsWith(' -'))).toBe(true);
  });

  test('share links through nginx: an allowed byte-0 transfer is sent by nginx and logged; a later range is not; a file the link does not allow is 404', async () => {
    const sharer = admin;
    const made = await sharer.json('POST', '/api/share-links', { name: 'Agency', mediaIds: [image.id], download: 'original' });
    expect(made.status).toBe(201);
    const token = new URL(made.body.url).pathname.split('/').pop()!;
    const viewOnly = await sharer.json('POST', '/api/share-links', { name: 'View only', mediaIds: [image.id], download: 'none' });
    const viewToken = new URL(viewOnly.body.url).pathname.split('/').pop()!;
    const v = new Session(proxy.url);
    expect((await v.get(`/s/${token}`)).status).toBe(200);
    expect((await v.get(`/s/${viewToken}`)).status).toBe(200);
    const downloads = async () => ((await sharer.json('GET', `/api/share-links/${made.body.id}/log`)).body.entries as any[]).filter((l) => l.action === 'download');

    const original = fs.readFileSync(path.join(server.mediaDir, image.url.split('/')[2], 'original.jpg'));
    const file = `/s/${token}/m/${image.id}/original.jpg`;
    const res = await v.get(`${file}?download=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('server')).toMatch(/^nginx/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), original)).toBe(0);
    expect(await downloads()).toHaveLength(1);
    expect((await downloads())[0]).toMatchObject({ detail: 'original', ip: expect.stringMatching(/127\.0\.0\.1/) });
    // Byte 0 again with a range: logged; a later range (a player seeking): not.
    expect((await v.get(file, { Range: 'bytes=0-99' })).status).toBe(206);
    expect(await downloads()).toHaveLength(2);
    expect((await v.get(file, { Range: 'bytes=100-199' })).status).toBe(206);
    expect((await v.get(file, { Range: 'bytes=100-' })).status).toBe(206);
    expect(await downloads()).toHaveLength(2);
    // A revalidation nginx would answer 304 is answered 304 by the app and is no download.
    const etag = res.headers.get('etag')!;
    expect((await v.get(file, { 'If-None-Match': etag })).status).toBe(304);
    expect(await downloads()).toHaveLength(2);

    // Refused: the view-only link's original, another item through this link, no visit.
    expect((await v.get(`/s/${viewToken}/m/${image.id}/original.jpg?download=1`)).status).toBe(404);
    expect((await v.get(`/s/${viewToken}/m/${image.id}/original.jpg`)).status).toBe(404);
    expect((await v.get(`/s/${token}/m/${priv.id}/original.mp4`)).status).toBe(404);
    expect((await new Session(proxy.url).get(file)).status).toBe(401);
    const own = await direct(v, `/s/${viewToken}/m/${image.id}/original.jpg`);
    expect(own.status).toBe(404);
    expect(own.headers.get('x-accel-redirect')).toBeNull();
  });

  // Issue 40: nginx makes the ranges here, so the app's reading of Range must never call an
  // answer nginx sends from byte 0 a later range (`bytes =1-` was one: 200, whole, unlogged).
  describe('the download log and every kind of Range header', () => {
    let file: string;
    let size: number;
    let visitor: Session;
    let downloads: () => Promise<number>;
    beforeAll(async () => {
      const link = await admin.json('POST', '/api/share-links', { name: 'Ranges', mediaIds: [image.id], download: 'original' });
      expect(link.status).toBe(201);
      const token = new URL(link.body.url).pathname.split('/').pop()!;
      visitor = new Session(proxy.url);
      expect((await visitor.get(`/s/${token}`)).status).toBe(200);
      file = `/s/${token}/m/${image.id}/original.jpg`;
      size = fs.statSync(path.join(server.mediaDir, image.url.split('/')[2], 'original.jpg')).size;
      downloads = async () => ((await admin.json('GET', `/api/share-links/${link.body.id}/log`)).body.entries as any[]).filter((e) => e.action === 'download').length;
    });

    test.each(RANGE_VARIANTS.map((v) => [v.name, v] as const))('%s', async (_name, v) => {
      const before = await downloads();
      const res = await visitor.get(file, { Range: v.header(size) });
      expect(res.headers.get('server')).toMatch(/^nginx/);
      const expected = v.nginx(size);
      expect(res.status).toBe(expected.status);
      const from = await firstByteSent(res);
      expect(from).toBe(expected.from);
      const logged = (await downloads()) - before;
      if (from === 0) expect(logged, 'an answer from byte 0 is a download').toBe(1);
      expect(logged).toBe(v.logged ? 1 : 0);
    });
  });

  // Issue 51: nginx honours If-Range, so the app decides whether a gallery download is one after
  // reading it, as nginx will: a later range with a stale If-Range is the whole file.
  test('gallery downloads through nginx: past the cap a later range is refused, stale If-Range or not; a guest’s later range of a file not started is logged', async () => {
    const c = await createClientWithLogin(server, { name: 'Gallery client' });
    const s = await clientSession(proxy.url, c.username, c.password);
    const stills = [await uploadImage(admin, { title: 'Still one' }), await uploadImage(admin, { title: 'Still two' }, '#1e3a8a')];
    const gallery = await createGallery(admin, { title: 'Through nginx', mediaIds: stills.map((m) => m.id) });
    expect((await admin.json('PATCH', `/api/galleries/${gallery.id}`, { downloadTier: 'highres', highResCap: 1 })).status).toBe(200);
    expect((await admin.json('PUT', `/api/galleries/${gallery.id}/clients`, { clientIds: [c.clientId] })).status).toBe(200);
    const [one, two] = gallery.images.map((i) => i.id);
    const files = `/client/galleries/${gallery.id}/f`;
    const first = await s.get(`${files}/${one}/download?size=highres`);
    expect(first.status).toBe(200);
    expect(first.headers.get('server')).toMatch(/^nginx/);
    const whole = Buffer.from(await first.arrayBuffer());
    for (const headers of [{ Range: 'bytes=1-', 'If-Range': '"stale-1"' }, { Range: 'bytes=1-' }] as Record<string, string>[]) {
      const over = await s.get(`${files}/${two}/download?size=highres`, headers);
      expect(over.status, JSON.stringify(headers)).toBe(403);
      await over.arrayBuffer();
    }
    const resume = await s.get(`${files}/${one}/download?size=highres`, { Range: 'bytes=1-' });
    expect(resume.status).toBe(206);
    expect(Buffer.from(await resume.arrayBuffer()).equals(whole.subarray(1))).toBe(true);
    expect((await s.json('GET', `/api/client/galleries/${gallery.id}`)).body.downloads).toMatchObject({ highResCap: 1, highResUsed: 1 });

    const link = await galleryLink(admin, gallery.id, { name: 'Guests through nginx' });
    const guest = await enterLink(proxy.url, link.token, 'Nginx Guest');
    const late = await guest.get(`/s/${link.token}/g/${two}/download?size=web1024`, { Range: 'bytes=1-' });
    expect(late.status).toBe(206);
    expect(late.headers.get('server')).toMatch(/^nginx/);
    await late.arrayBuffer();
    const log = (await admin.json('GET', `/api/galleries/${gallery.id}/downloads`)).body;
    expect(log[0]).toMatchObject({ who: 'Nginx Guest', tier: 'web1024', zip: false });
  });

  test("HEAD through nginx: the file's headers and length", async () => {
    const res = await admin.request('HEAD', priv.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('content-type')).toBe('video/mp4');
  });
});

describe('/_astro/ assets from disk', () => {
  const assets = () => fs.readdirSync(path.join(OUT_DIR, 'client', '_astro'));

  test('the build wrote .br and .gz beside the text assets, smaller than each', () => {
    const js = assets().filter((f) => /\.(js|css)$/.test(f));
    expect(js.length).toBeGreaterThan(5);
    const big = js.filter((f) => fs.statSync(path.join(OUT_DIR, 'client', '_astro', f)).size > 1024);
    for (const f of big) {
      const size = fs.statSync(path.join(OUT_DIR, 'client', '_astro', f)).size;
      for (const ext of ['.br', '.gz']) expect(fs.statSync(path.join(OUT_DIR, 'client', '_astro', f + ext)).size, f + ext).toBeLessThan(size);
    }
  });

  test('through nginx: a year immutable, brotli or gzip when asked, the plain file otherwise; never from the app', async () => {
    const css = assets().find((f) => f.endsWith('.css'))!;
    const js = assets().find((f) => f.endsWith('.js') && fs.statSync(path.join(OUT_DIR, 'client', '_astro', f)).size > 4096)!;
    for (const name of [css, js]) {
      const url = `${proxy.url}/_astro/${name}`;
      const plain = fs.readFileSync(path.join(OUT_DIR, 'client', '_astro', name));
      for (const [accept, encoding, suffix] of [
        ['gzip, deflate, br', 'br', '.br'],
        ['gzip', 'gzip', '.gz'],
        ['identity', null, ''],
      ] as const) {
        // fetch decodes the body; Content-Length is what was sent: the .br, the .gz or the file.
        const res = await fetch(url, { headers: { 'Accept-Encoding': accept } });
        expect(res.status).toBe(200);
        expect(res.headers.get('cache-control')).toBe(YEAR_IMMUTABLE);
        expect(res.headers.get('content-encoding')).toBe(encoding);
        expect(res.headers.get('content-length')).toBe(String(fs.statSync(path.join(OUT_DIR, 'client', '_astro', name + suffix)).size));
        expect(res.headers.get('content-type')).toMatch(name.endsWith('.css') ? /^text\/css/ : /javascript/);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        if (encoding) expect(res.headers.get('vary')).toMatch(/Accept-Encoding/i);
        expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), plain)).toBe(0);
      }
    }
    expect(proxy.accessLog().filter((l) => l.includes(' /_astro/')).every((l) => l.endsWith(' -'))).toBe(true);
    expect((await fetch(`${proxy.url}/_astro/missing.abc123.js`)).status).toBe(404);
  });

  test('the app still serves /_astro/ on its own (no nginx), compressed on the fly', async () => {
    const js = assets().find((f) => f.endsWith('.js') && fs.statSync(path.join(OUT_DIR, 'client', '_astro', f)).size > 4096)!;
    const res = await fetch(`${server.url}/_astro/${js}`, { headers: { 'Accept-Encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(YEAR_IMMUTABLE);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), fs.readFileSync(path.join(OUT_DIR, 'client', '_astro', js)))).toBe(0);
  });
});
