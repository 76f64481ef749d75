// Watch pages (/portfolio/{slug}) and canonical sitemaps (issue 21), on a real server with
// real uploads; the video is converted by the real worker so its page names a rendition.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { Session } from '../helpers/http.ts';
import { adminSession } from '../helpers/accounts.ts';
import { upload, uploadImage } from '../helpers/media-uploads.ts';
import { source } from '../helpers/video-sources.ts';
import fs from 'node:fs';

let server: TestServer;
let admin: Session;
let anon: Session;
let film: any;
let still: any;
let hidden: any;

const get = (path: string) => fetch(server.url + path, { redirect: 'manual' });

function jsonLd(html: string): any[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
}

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
}

async function ready(id: number) {
  for (let i = 0; i < 600; i++) {
    const p = await (await admin.get(`/api/media/${id}/processing`)).json();
    if (p.processingStatus === 'ready') return;
    if (p.processingStatus === 'failed') throw new Error(p.processingError);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('not ready in time');
}

beforeAll(async () => {
  server = await startServer({ env: { JOB_POLL_MS: '50' } });
  admin = await adminSession(server.url);
  anon = new Session(server.url);
  const up = await upload(admin, { title: 'Harbour Lights – Brand Film', tags: 'commercial, night', showInPortfolio: 'true' }, { data: fs.readFileSync(source('H.264/AAC MP4 (remux)')), name: 'harbour.mp4', type: 'video/mp4' });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  film = up.body;
  await ready(film.id);
  still = await uploadImage(admin, { title: 'Quiet Morning', isFeatured: 'true' });
  hidden = await uploadImage(admin, { title: 'Client Only Cut' });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('watch pages', () => {
  test('a portfolio film has a server-rendered page with VideoObject and BreadcrumbList JSON-LD naming public files', async () => {
    expect(film.slug).toBe('harbour-lights-brand-film');
    const res = await get('/portfolio/harbour-lights-brand-film');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<h1');
    expect(html).toContain('Harbour Lights – Brand Film');
    const data = jsonLd(html);
    const video = data.find((d) => d['@type'] === 'VideoObject');
    expect(video).toMatchObject({ name: 'Harbour Lights – Brand Film', uploadDate: film.createdAt, duration: 'PT2S' });
    expect(new URL(video.url).pathname).toBe('/portfolio/harbour-lights-brand-film');
    for (const field of ['description', 'thumbnailUrl', 'contentUrl', 'embedUrl']) expect(typeof video[field], field).toBe('string');
    // contentUrl is the playable review proxy, and anyone may fetch it (the item is public).
    const content = new URL(video.contentUrl);
    expect(content.pathname).toMatch(/\/720p\.mp4$/);
    expect((await anon.get(content.pathname + content.search, { Range: 'bytes=0-99' })).status).toBe(206);
    const embed = new URL(video.embedUrl);
    const embedRes = await get(embed.pathname);
    expect(embedRes.status).toBe(200);
    expect(embedRes.headers.get('x-frame-options')).toBeNull();
    expect(embedRes.headers.get('content-security-policy')).toContain("frame-ancestors 'self' https:");
    expect(await embedRes.text()).toContain(content.pathname);
    const crumbs = data.find((d) => d['@type'] === 'BreadcrumbList');
    expect(crumbs.itemListElement.map((c: any) => c.name)).toEqual(['Home', 'Portfolio', 'Harbour Lights – Brand Film']);
    // Open Graph says it is a video and where it plays.
    expect(html).toContain('<meta property="og:type" content="video.other"');
    expect(html).toMatch(/<meta property="og:video" content="[^"]*\/720p\.mp4/);
    expect(html).toMatch(/<meta property="og:video:width" content="320"/);
  });

  test('a featured still has a page with the full image and no VideoObject', async () => {
    const res = await get(`/portfolio/${still.slug}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`data-testid="watch-image"`);
    expect(jsonLd(html).map((d) => d['@type'])).not.toContain('VideoObject');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  test.each([
    ['an item on neither the portfolio nor the home page', () => `/portfolio/${hidden.slug}`],
    ['a slug nobody has', () => '/portfolio/no-such-film'],
    ['the embed player of a private item', () => `/portfolio/${hidden.slug}/embed`],
  ])('%s answers 404', async (_name, path) => {
    expect((await get(path())).status).toBe(404);
  });

  test('renaming keeps the old address working by 301, and the page shows the new title', async () => {
    const item = await uploadImage(admin, { title: 'Old Name', showInPortfolio: 'true' });
    expect((await get('/portfolio/old-name')).status).toBe(200);
    expect((await admin.json('PUT', `/api/media/${item.id}`, { title: 'New Name' })).status).toBe(200);
    const moved = await get('/portfolio/old-name');
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/portfolio/new-name');
    expect(await (await get('/portfolio/new-name')).text()).toContain('New Name');
    // A new item with the old title gets a fresh slug: the published one keeps pointing at the film it named.
    const other = await uploadImage(admin, { title: 'Old Name', showInPortfolio: 'true' });
    expect(other.slug).toBe('old-name-2');
  });

  test('leaving the portfolio removes the page and its sitemap entries on the next request', async () => {
    const item = await uploadImage(admin, { title: 'Short Stay', showInPortfolio: 'true' });
    expect((await get('/portfolio/short-stay')).status).toBe(200); // now cached
    expect(locs(await (await get('/sitemap-0.xml')).text())).toContain(new URL('/portfolio/short-stay', locs(await (await get('/sitemap-0.xml')).text())[0]).href);
    expect((await admin.json('PUT', `/api/media/${item.id}`, { showInPortfolio: false })).status).toBe(200);
    expect((await get('/portfolio/short-stay')).status).toBe(404);
    expect((await (await get('/sitemap-0.xml')).text())).not.toContain('/portfolio/short-stay');
  });
});

describe('sitemaps hold only canonical URLs', () => {
  test('the page sitemap lists each public page once plus every watch page; the video sitemap points each film at its page', async () => {
    const pages = locs(await (await get('/sitemap-0.xml')).text()).map((u) => new URL(u).pathname);
    expect(new Set(pages).size).toBe(pages.length);
    expect(pages.filter((p) => p.length > 1 && p.endsWith('/'))).toEqual([]);
    expect(pages).toEqual(expect.arrayContaining(['/', '/portfolio', '/about', '/services', '/contact', '/privacy-policy', '/portfolio/harbour-lights-brand-film', `/portfolio/${still.slug}`]));
    expect(pages).not.toContain(`/portfolio/${hidden.slug}`);
    const videos = await (await get('/sitemap-videos.xml')).text();
    expect(locs(videos).map((u) => new URL(u).pathname)).toEqual(['/portfolio/harbour-lights-brand-film']);
    expect(videos).toMatch(/<video:content_loc>[^<]*\/720p\.mp4/);
    const index = locs(await (await get('/sitemap-index.xml')).text()).map((u) => new URL(u).pathname);
    expect(index).toEqual(['/sitemap-0.xml', '/sitemap-videos.xml']);
  });

  test('every loc in every sitemap answers 200 without a redirect', async () => {
    const all = new Set<string>();
    for (const s of ['/sitemap-index.xml', '/sitemap-0.xml', '/sitemap-videos.xml']) for (const u of locs(await (await get(s)).text())) all.add(new URL(u).pathname);
    expect(all.size).toBeGreaterThan(8);
    for (const p of all) expect([p, (await get(p)).status]).toEqual([p, 200]);
  });

  test.each([['/about/'], ['/portfolio/'], ['/portfolio/harbour-lights-brand-film/'], ['/contact/?utm=x']])('%s answers 301 to its canonical form', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(301);
    const [p, q] = path.split('?');
    expect(res.headers.get('location')).toBe(p!.replace(/\/$/, '') + (q ? `?${q}` : ''));
  });

  test('POST /api/generate-sitemap counts the watch pages', async () => {
    const res = await admin.json('POST', '/api/generate-sitemap');
    expect(res.status).toBe(200);
    const pages = locs(await (await get('/sitemap-0.xml')).text()).length;
    const watch = (await server.sql.execute('SELECT count(*) AS n FROM media WHERE show_in_portfolio = 1 OR is_featured = 1')).rows[0]!.n;
    expect(res.body).toMatchObject({ pages, watchPages: Number(watch), videos: 1 });
    expect(pages).toBe(7 + Number(watch)); // seven public pages (Terms of Service since issue 53)
  });
});

describe('items written without a slug (outside the app, or before migration 0008)', () => {
  test('1,100 of one title get unique slugs on the next public reads, all at once, in a few statements', async () => {
    // One statement, so the app sees them all together (as after an import or an old backup).
    await server.sql.execute(`
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1100)
      INSERT INTO media (title, type, storage_key, url, filename, file_size, mime_type, show_in_portfolio, tags)
      SELECT 'Imported Reel', 'image', printf('imported%024d', i), printf('/media/imported%024d/original.jpg', i), 'original.jpg', 1000, 'image/jpeg', 1, '[]' FROM n`);
    await server.sql.execute('update site_state set version = version + 1 where id = 1');
    // Ten public reads at once: each waits for the one fill and answers.
    const pages = await Promise.all(Array.from({ length: 10 }, () => get('/portfolio')));
    expect(pages.map((p) => p.status)).toEqual(Array(10).fill(200));
    const rows = (await server.sql.execute("SELECT slug FROM media WHERE title = 'Imported Reel' ORDER BY id")).rows.map((r) => r.slug);
    expect(rows).toEqual(['imported-reel', ...Array.from({ length: 1099 }, (_, i) => `imported-reel-${i + 2}`)]);
    // No item is left without one.
    const others = await server.sql.execute("SELECT count(*) AS n FROM media WHERE slug IS NULL");
    expect(Number(others.rows[0]!.n)).toBe(0);
  });
});
