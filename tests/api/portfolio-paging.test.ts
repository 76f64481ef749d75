// Paged portfolio and the bounded home grid (issue 23): the cursor API, server-rendered pages
// and categories, the "Load more" link without JavaScript, and the featured-limit setting.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { Session } from '../helpers/http.ts';
import { adminSession } from '../helpers/accounts.ts';
import { changeSite, insertMedia } from '../helpers/public-media.ts';

let server: TestServer;
let admin: Session;
let anon: Session;

const CATS = ['commercial', 'documentary', 'corporate', 'music video'];

async function portfolioOrder(where = ''): Promise<number[]> {
  const r = await server.sql.execute(`SELECT id FROM media WHERE show_in_portfolio = 1 ${where} ORDER BY created_at DESC, id DESC`);
  return r.rows.map((x) => Number(x.id));
}

async function pageThrough(query: string, between?: (n: number) => Promise<void>): Promise<number[]> {
  const ids: number[] = [];
  let cursor: string | null = null;
  for (let n = 0; n < 50; n++) {
    const res = await anon.get(`/api/media/portfolio?limit=24${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    ids.push(...body.items.map((i: { id: number }) => i.id));
    cursor = body.nextCursor;
    if (!cursor) return ids;
    await between?.(n);
  }
  throw new Error('paging did not end');
}

const titlesIn = (html: string) => [...html.matchAll(/data-media-id="(\d+)"/g)].map((m) => Number(m[1]));

beforeAll(async () => {
  server = await startServer();
  admin = await adminSession(server.url);
  anon = new Session(server.url);
  // 70 portfolio items: every fifth untagged, the rest cycling through the four categories;
  // two with near-miss tags that must not match ("Music-Video", "music videos").
  for (let i = 0; i < 70; i++) {
    const tags = i % 5 === 4 ? [] : [CATS[i % 4]!];
    await insertMedia(server.sql, server.mediaDir, { title: `Work ${String(i).padStart(2, '0')}`, type: 'image', portfolio: true, featured: i < 30, tags });
  }
  await insertMedia(server.sql, server.mediaDir, { title: 'Near miss A', type: 'image', portfolio: true, tags: ['Music-Video'] });
  await insertMedia(server.sql, server.mediaDir, { title: 'Near miss B', type: 'image', portfolio: true, tags: ['music videos'] });
  await insertMedia(server.sql, server.mediaDir, { title: 'Not in the portfolio', type: 'image', portfolio: false, tags: ['commercial'] });
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe('GET /api/media/portfolio paging', () => {
  test('without paging parameters it answers the full list, as the documents describe', async () => {
    const res = await anon.get('/api/media/portfolio');
    const body = await res.json();
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((i: { id: number }) => i.id)).toEqual(await portfolioOrder());
  });

  test('pages return every portfolio item exactly once, newest first, even while items are added between pages', async () => {
    const before = await portfolioOrder();
    const ids = await pageThrough('', async (n) => {
      await insertMedia(server.sql, server.mediaDir, { title: `Added while paging ${n}`, type: 'image', portfolio: true, tags: ['commercial'] });
    });
    expect(ids).toEqual(before);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('items sharing one created_at across page boundaries each come exactly once, in (created_at, id) order', async () => {
    // Ten neighbours in the order get the created_at of the first of them: with pages of 4,
    // two boundaries fall inside the tie (only the id can tell where a page stopped).
    const order = await portfolioOrder();
    const tied = order.slice(20, 30);
    const at = Number((await server.sql.execute({ sql: 'SELECT created_at FROM media WHERE id = ?', args: [tied[0]!] })).rows[0]!.created_at);
    await changeSite(server.sql, { sql: `UPDATE media SET created_at = ? WHERE id IN (${tied.join(',')})`, args: [at] });
    const same = await server.sql.execute(`SELECT count(DISTINCT created_at) AS n FROM media WHERE id IN (${tied.join(',')})`);
    expect(Number(same.rows[0]!.n)).toBe(1);
    const want = await portfolioOrder();
    for (const limit of [4, 24]) {
      const ids: number[] = [];
      let cursor: string | null = null;
      for (let n = 0; n < 100 && (n === 0 || cursor); n++) {
        const res = await anon.get(`/api/media/portfolio?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status).toBe(200);
        const body = await res.json();
        ids.push(...body.items.map((i: { id: number }) => i.id));
        cursor = body.nextCursor;
      }
      expect(cursor, `limit=${limit}: paging ended`).toBeNull();
      expect(ids, `limit=${limit}`).toEqual(want);
    }
  });

  test.each([
    ['music-video', "AND EXISTS (SELECT 1 FROM json_each(tags) WHERE value = 'music video')"],
    ['Documentary', "AND EXISTS (SELECT 1 FROM json_each(tags) WHERE value = 'documentary')"],
  ])('category=%s pages hold exactly the items with a tag equal to the lower-cased name', async (category, where) => {
    const ids = await pageThrough(`&category=${encodeURIComponent(category)}`);
    const want = await portfolioOrder(where);
    expect(want.length).toBeGreaterThan(10);
    expect(ids).toEqual(want);
  });

  test.each([
    ['limit=0', 'limit must be between 1 and 100'],
    ['limit=101', 'limit must be between 1 and 100'],
    ['limit=ten', 'limit must be a whole number'],
    ['cursor=%3Cscript%3E', 'cursor is not valid'],
    ['cursor=bm90LWEtY3Vyc29y', 'cursor is not valid'],
    ['category=weddings', 'category must be one of commercial, documentary, corporate, music-video'],
  ])('%s answers 400 naming the problem', async (query, message) => {
    const res = await anon.get(`/api/media/portfolio?${query}`);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toContain(message);
  });
});

describe('the /portfolio page', () => {
  test('renders the newest 24 and a real "Load more" link; ?page=2 renders the next 24 without JavaScript', async () => {
    const order = await portfolioOrder();
    const first = await (await fetch(`${server.url}/portfolio`)).text();
    expect(titlesIn(first)).toEqual(order.slice(0, 24));
    expect(first).toContain('href="/portfolio?page=2"');
    const second = await fetch(`${server.url}/portfolio?page=2`);
    expect(second.status).toBe(200);
    const html = await second.text();
    expect(titlesIn(html)).toEqual(order.slice(24, 48));
    expect(html).toContain('href="/portfolio?page=3"');
    const last = Math.ceil(order.length / 24);
    expect(await (await fetch(`${server.url}/portfolio?page=${last}`)).text()).not.toContain('data-testid="load-more"');
    expect((await fetch(`${server.url}/portfolio?page=${last + 1}`)).status).toBe(404);
  });

  test('a category page is linkable and agrees with the API', async () => {
    const want = await portfolioOrder("AND EXISTS (SELECT 1 FROM json_each(tags) WHERE value = 'corporate')");
    const html = await (await fetch(`${server.url}/portfolio?category=corporate`)).text();
    expect(titlesIn(html)).toEqual(want.slice(0, 24));
    expect(html).toMatch(/<a[^>]*href="\/portfolio\?category=corporate#gallery"[^>]*aria-current="page"|<a[^>]*aria-current="page"[^>]*href="\/portfolio\?category=corporate#gallery"/);
    expect((await fetch(`${server.url}/portfolio?category=weddings`)).status).toBe(404);
  });
});

test.each([['/portfolio?page=2'], ['/portfolio?category=corporate']])('%s is cached per page and category, and an edit invalidates it', async (path) => {
  const first = await fetch(server.url + path);
  expect(first.status).toBe(200);
  const body = await first.text();
  const again = await fetch(server.url + path);
  expect(again.headers.get('x-page-cache')).toBe('HIT');
  expect(await again.text()).toBe(body);
  // Another page of the same path is its own entry, not this one.
  expect(titlesIn(await (await fetch(`${server.url}/portfolio`)).text())).not.toEqual(titlesIn(body));
  const added = await insertMedia(server.sql, server.mediaDir, { title: 'Cache buster', type: 'image', portfolio: true, tags: ['corporate'] });
  // A write through the app moves the site version (the direct insert above does not).
  const current = await (await admin.get('/api/branding-settings')).json();
  expect((await admin.json('PUT', '/api/branding-settings', { companyName: current.companyName })).status).toBe(200);
  const after = await fetch(server.url + path);
  expect(after.headers.get('x-page-cache')).not.toBe('HIT');
  expect(titlesIn(await after.text())).not.toEqual(titlesIn(body));
  await server.sql.execute({ sql: 'DELETE FROM media WHERE id = ?', args: [added.id] });
});

describe('the home page grid', () => {
  test.each([[2], [25], [4.5], ['nine']])('featuredLimit %s is refused with a message naming the field', async (value) => {
    const current = await (await admin.get('/api/branding-settings')).json();
    const res = await admin.json('PUT', '/api/branding-settings', { companyName: current.companyName, featuredLimit: value });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Featured items on the home page must be a whole number from 3 to 24');
  });

  test('shows the newest N featured items (default 9) and "See all work"; a new limit takes effect on the next request', async () => {
    const featured = (await server.sql.execute('SELECT id FROM media WHERE is_featured = 1 ORDER BY created_at DESC, id DESC')).rows.map((r) => Number(r.id));
    const home = await (await fetch(`${server.url}/`)).text();
    expect(titlesIn(home)).toEqual(featured.slice(0, 9));
    expect(home).toContain('data-testid="see-all-work"');
    const current = await (await admin.get('/api/branding-settings')).json();
    expect(current.featuredLimit).toBe(9);
    const res = await admin.json('PUT', '/api/branding-settings', { companyName: current.companyName, featuredLimit: 4 });
    expect(res.status).toBe(200);
    expect(res.body.featuredLimit).toBe(4);
    expect(titlesIn(await (await fetch(`${server.url}/`)).text())).toEqual(featured.slice(0, 4));
  });
});
