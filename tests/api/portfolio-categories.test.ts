// Portfolio categories staff can edit (issue 32): the documents' four by default, edit:website
// to change, validated like every settings form, and the filter, the category pages and the
// paged API all follow the saved list at once (the save renews the page cache).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { Session } from '../helpers/http.ts';
import { ACTORS, matrixSessions, REFUSAL, type Actor } from '../helpers/accounts.ts';
import { insertMedia } from '../helpers/public-media.ts';

let server: TestServer;
let sessions: Record<Actor, Session>;
let anon: Session;
const DEFAULT = ['Commercial', 'Documentary', 'Corporate', 'Music Video'];

/** The filter's link texts on /portfolio, in order. */
async function filterLinks(): Promise<string[]> {
  const html = await (await fetch(`${server.url}/portfolio`)).text();
  const nav = html.match(/<nav[^>]*aria-label="Filter by category"[^>]*>([\s\S]*?)<\/nav>/)?.[1] ?? '';
  return [...nav.matchAll(/<a[^>]*>\s*([^<]*?)\s*<\/a>/g)].map((m) => m[1]!);
}

beforeAll(async () => {
  server = await startServer();
  sessions = await matrixSessions(server.url, 'edit:website');
  anon = new Session(server.url);
  // Above the 12 items the filter needs (000 §9): weddings, a corporate film and the rest untagged.
  for (let i = 0; i < 14; i++) {
    const tags = i < 3 ? ['weddings'] : i === 3 ? ['corporate'] : [];
    await insertMedia(server.sql, server.mediaDir, { title: `Film ${i}`, type: 'image', portfolio: true, tags });
  }
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

test('by default the list is the documents four, in GET /api/portfolio-categories, the branding and the filter', async () => {
  expect(await (await anon.get('/api/portfolio-categories')).json()).toEqual({ categories: DEFAULT });
  expect((await (await anon.get('/api/branding-settings')).json()).portfolioCategories).toEqual(DEFAULT);
  expect(await filterLinks()).toEqual(['All', ...DEFAULT]);
});

describe('PUT /api/portfolio-categories needs edit:website', () => {
  test.each(ACTORS)('as %s', async (actor) => {
    const before = await server.sql.execute('SELECT portfolio_categories FROM branding_settings');
    const res = await sessions[actor].json('PUT', '/api/portfolio-categories', { categories: DEFAULT });
    expect(res.status, JSON.stringify(res.body)).toBe(REFUSAL[actor] ?? 200);
    if (REFUSAL[actor] === 403) expect(res.body.message).toContain('edit:website');
    if (REFUSAL[actor]) expect((await server.sql.execute('SELECT portfolio_categories FROM branding_settings')).rows).toEqual(before.rows);
  });
});

describe('a bad list answers 400 naming the problem and changes nothing', () => {
  test.each([
    ['no categories', [], 'Keep at least one category'],
    ['13 categories', Array.from({ length: 13 }, (_, i) => `Cat ${i}`), 'At most 12 categories'],
    ['two names with one slug', ['Music Video', 'music-video'], '"music-video" is the same category as "Music Video"'],
    ['"All"', ['Commercial', 'all'], '"All" is always first'],
    ['a name of punctuation only', ['!!!'], 'needs a letter or a digit'],
    ['a blank name', ['Commercial', '   '], 'categories.1'],
    ['a 41-character name', ['x'.repeat(41)], 'categories.0'],
    ['a number', [42], 'categories.0'],
    ['not a list', 'Weddings', 'categories'],
  ])('%s', async (_, categories, message) => {
    const res = await sessions.admin.json('PUT', '/api/portfolio-categories', { categories });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect((await (await anon.get('/api/portfolio-categories')).json()).categories).toEqual(DEFAULT);
  });
});

test('a saved list drives the filter, the category pages and the paged API at once, and reset brings the four back', async () => {
  // Cached first, so the save has to renew the cache for the new filter to show.
  expect(await filterLinks()).toEqual(['All', ...DEFAULT]);
  const res = await sessions.admin.json('PUT', '/api/portfolio-categories', { categories: [' Weddings ', 'Corporate', 'Events & Parties'] });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ categories: ['Weddings', 'Corporate', 'Events & Parties'] });
  expect(await filterLinks()).toEqual(['All', 'Weddings', 'Corporate', 'Events &amp; Parties']);

  const weddings = await (await anon.get('/api/media/portfolio?category=weddings')).json();
  expect(weddings.items.map((i: { title: string }) => i.title).sort()).toEqual(['Film 0', 'Film 1', 'Film 2']);
  const page = await fetch(`${server.url}/portfolio?category=weddings`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('href="/portfolio?category=weddings#gallery"');
  expect((await fetch(`${server.url}/portfolio?category=events-parties`)).status).toBe(200);
  // A category that is gone is gone everywhere.
  expect((await fetch(`${server.url}/portfolio?category=documentary`)).status).toBe(404);
  const gone = await anon.get('/api/media/portfolio?category=documentary');
  expect(gone.status).toBe(400);
  expect((await gone.json()).message).toBe('category must be one of weddings, corporate, events-parties');

  expect((await sessions.admin.json('PUT', '/api/portfolio-categories', { categories: DEFAULT })).status).toBe(200);
  expect(await filterLinks()).toEqual(['All', ...DEFAULT]);
});

test('a stored value that is not a list of names falls back to the four', async () => {
  await server.sql.execute(`UPDATE branding_settings SET portfolio_categories = '{"x":1}'`);
  expect((await (await anon.get('/api/portfolio-categories')).json()).categories).toEqual(DEFAULT);
  await server.sql.execute(`UPDATE branding_settings SET portfolio_categories = '${JSON.stringify(DEFAULT)}'`);
});
