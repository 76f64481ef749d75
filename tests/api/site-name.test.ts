// Issue 19 #12 (the company name reaches titles, og:site_name and JSON-LD when no SEO business
// name is set) and #11 (tel: links and the JSON-LD telephone are E.164).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { staffSession, type Session } from '../helpers/http.ts';

let server: TestServer;
let admin: Session;
beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
});
afterAll(() => server?.stop());

async function page(path: string) {
  const text = await (await fetch(server.url + path)).text();
  const title = /<title>([^<]*)<\/title>/.exec(text)?.[1] ?? '';
  const siteName = /<meta property="og:site_name" content="([^"]*)"/.exec(text)?.[1] ?? '';
  const ld = [...text.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!));
  const business = ld.flat().find((x: { '@type'?: string }) => x['@type'] === 'ProfessionalService' || x['@type'] === 'LocalBusiness');
  const tels = [...text.matchAll(/href="(tel:[^"]*)"/g)].map((m) => m[1]);
  return { title, siteName, business, tels };
}

async function seo(body: Record<string, unknown>) {
  const current = (await admin.json('GET', '/api/seo-settings')).body;
  const { openGraphImage: _a, twitterImage: _b, openGraphImageUrl: _c, twitterImageUrl: _d, updatedAt: _e, updatedBy: _f, id: _g, ...rest } = current;
  const res = await admin.put('/api/seo-settings', { ...rest, ...body });
  expect(res.status).toBe(200);
}

describe('company name fallback', () => {
  test('a fresh install has no SEO business name or meta title of its own', async () => {
    const row = await server.sql.execute('SELECT business_name, meta_title FROM seo_settings WHERE id = 1');
    expect(row.rows[0]).toMatchObject({ business_name: '', meta_title: '' });
  });

  test('with the SEO business name empty, the branding company name is used everywhere', async () => {
    expect((await admin.put('/api/branding-settings', { companyName: 'Northlight Pictures' })).status).toBe(200);
    for (const path of ['/', '/about', '/portfolio', '/contact']) {
      const p = await page(path);
      expect(p.title, path).toContain('Northlight Pictures');
      expect(p.siteName, path).toBe('Northlight Pictures');
      expect(p.business?.name, path).toBe('Northlight Pictures');
    }
    expect((await page('/')).title).toBe('Northlight Pictures | Cinematic Video Production in Leicestershire');
    expect((await page('/about')).title).toBe('About | Northlight Pictures');
  });

  test('a set SEO business name wins over the company name', async () => {
    await seo({ businessName: 'Northlight Pictures Ltd' });
    const p = await page('/about');
    expect(p.title).toBe('About | Northlight Pictures Ltd');
    expect(p.siteName).toBe('Northlight Pictures Ltd');
    expect(p.business?.name).toBe('Northlight Pictures Ltd');
    await seo({ businessName: '' });
  });
});

describe('phone numbers', () => {
  test.each([
    ['+44 (0)116 000 0000', 'tel:+441160000000', '+441160000000'],
    ['0116 496 0000', 'tel:+441164960000', '+441164960000'],
  ])('%s is linked as %s', async (written, href, e164) => {
    const current = (await admin.json('GET', '/api/contact-info')).body;
    expect((await admin.put('/api/contact-info', { ...current, contactPhone: written })).status).toBe(200);
    const p = await page('/contact');
    expect(p.tels.length).toBeGreaterThan(0);
    for (const t of p.tels) expect(t).toBe(href);
    expect(p.business?.telephone).toBe(e164);
  });
});
