// Site settings writes (001 §3, §5, §7): permissions, validation naming the field, round
// trips, live effect through the page cache and a second process, and the video sitemap.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { Session } from '../helpers/http.ts';
import { ACTORS, matrixSessions, REFUSAL, type Actor } from '../helpers/accounts.ts';
import { insertMedia } from '../helpers/public-media.ts';

let a: TestServer;
let b: TestServer;
let sessions: Record<Actor, Session>;
let admin: Session;
let image: { id: number; url: string };
let image2: { id: number; url: string };
let video: { id: number; url: string };

beforeAll(async () => {
  a = await startServer();
  // A second process on the same database: a save through A must show through B.
  b = await startServer({ dir: a.dir });
  sessions = await matrixSessions(a.url, 'edit:website');
  admin = sessions.admin;
  image = await insertMedia(a.sql, a.mediaDir, { title: 'Still', type: 'image' });
  image2 = await insertMedia(a.sql, a.mediaDir, { title: 'Second still', type: 'image' });
  video = await insertMedia(a.sql, a.mediaDir, { title: 'Showreel', type: 'video', portfolio: true });
}, 120_000);

afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

const VALID_SEO = {
  metaTitle: 'Studio Films | Leicester',
  metaDescription: 'Films for brands & people <in> the Midlands.',
  metaKeywords: 'video, film',
  canonicalUrl: 'https://films.example/',
  openGraphImageId: null,
  twitterImageId: null,
  businessName: 'Studio Films Ltd',
  businessDescription: 'Cinematic video production.',
  businessType: 'LocalBusiness',
  businessUrl: 'https://films.example',
  addressLocality: 'Leicester',
  addressRegion: 'England',
  addressCountry: 'GB',
  postalCode: 'LE1 1AA',
  streetAddress: '1 High Street',
  latitude: '52.63',
  longitude: '-1.13',
  businessEmail: 'hello@films.example',
  businessPhone: '+44 116 000 0000',
  services: '["Weddings","Corporate"]',
  faqs: '[{"question":"Where?","answer":"Leicester"}]',
  enableStructuredData: false,
  enableOpenGraph: false,
  enableTwitterCards: true,
  robotsDirective: 'noindex, follow',
};
const VALID_CONTACT = {
  contactEmail: 'studio@films.example',
  contactPhone: '0116 111 2222',
  contactAddress: '2 Market Street, Leicester',
  instagramUrl: 'https://instagram.com/films',
  facebookUrl: '',
  linkedinUrl: 'https://www.linkedin.com/company/films',
};

describe('every write needs edit:website', () => {
  const writes: [string, string, () => unknown][] = [
    ['PUT', '/api/website-settings/hero', () => ({ backgroundImageId: null, backgroundVideoId: null })],
    ['PUT', '/api/branding-settings', () => ({ companyName: 'Studio' })],
    ['PUT', '/api/seo-settings', () => ({ metaTitle: 'Title' })],
    ['PUT', '/api/contact-info', () => VALID_CONTACT],
    ['POST', '/api/generate-sitemap', () => undefined],
  ];
  const cases = writes.flatMap(([method, path, body]) => ACTORS.map((actor) => [method, path, actor, body] as const));
  test.each(cases)('%s %s as %s', async (method, path, actor, body) => {
    const res = await sessions[actor].json(method, path, body());
    expect(res.status, JSON.stringify(res.body)).toBe(REFUSAL[actor] ?? 200);
    if (REFUSAL[actor] === 403) expect(res.body.message).toContain('edit:website');
  });
});

describe('invalid input answers 400 naming the field', () => {
  const cases: [string, string, () => unknown, string][] = [
    ['/api/website-settings/not_a_section', 'unknown section', () => ({ backgroundImageId: null }), 'section'],
    ['/api/website-settings/hero', 'a video as the image', () => ({ backgroundImageId: video.id }), 'backgroundImageId'],
    ['/api/website-settings/hero', 'an image as the video', () => ({ backgroundVideoId: image.id }), 'backgroundVideoId'],
    ['/api/website-settings/hero', 'a missing media id', () => ({ backgroundImageId: 999_999 }), 'backgroundImageId'],
    ['/api/website-settings/hero', 'a text id', () => ({ backgroundVideoId: 'abc' }), 'backgroundVideoId'],
    ['/api/branding-settings', 'an empty company name', () => ({ companyName: '  ' }), 'companyName'],
    ['/api/branding-settings', 'no company name', () => ({ showCompanyText: true }), 'companyName'],
    ['/api/branding-settings', 'a 101-character company name', () => ({ companyName: 'x'.repeat(101) }), 'companyName'],
    ['/api/branding-settings', 'a video as light logo', () => ({ companyName: 'S', logoLightImageId: video.id }), 'logoLightImageId'],
    ['/api/branding-settings', 'a video as dark logo', () => ({ companyName: 'S', logoDarkImageId: video.id }), 'logoDarkImageId'],
    ['/api/branding-settings', 'a video as favicon', () => ({ companyName: 'S', faviconImageId: video.id }), 'faviconImageId'],
    ['/api/branding-settings', 'a missing OG image', () => ({ companyName: 'S', openGraphImageId: 999_999 }), 'openGraphImageId'],
    ['/api/branding-settings', 'a text switch', () => ({ companyName: 'S', showCompanyText: 'yes' }), 'showCompanyText'],
    ['/api/seo-settings', 'a relative canonical URL', () => ({ canonicalUrl: 'films.example' }), 'canonicalUrl'],
    ['/api/seo-settings', 'a javascript: canonical URL', () => ({ canonicalUrl: 'javascript:alert(1)' }), 'canonicalUrl'],
    ['/api/seo-settings', 'a bad business URL', () => ({ businessUrl: 'not a url' }), 'businessUrl'],
    ['/api/seo-settings', 'a bad business email', () => ({ businessEmail: 'hello@' }), 'businessEmail'],
    ['/api/seo-settings', 'a phone with letters', () => ({ businessPhone: 'call me' }), 'businessPhone'],
    ['/api/seo-settings', 'country UK (not ISO)', () => ({ addressCountry: 'UK' }), 'addressCountry'],
    ['/api/seo-settings', 'country of three letters', () => ({ addressCountry: 'GBR' }), 'addressCountry'],
    ['/api/seo-settings', 'an empty country', () => ({ addressCountry: '' }), 'addressCountry'],
    ['/api/seo-settings', 'latitude out of range', () => ({ latitude: '91' }), 'latitude'],
    ['/api/seo-settings', 'latitude not a number', () => ({ latitude: 'north' }), 'latitude'],
    ['/api/seo-settings', 'longitude out of range', () => ({ longitude: -181 }), 'longitude'],
    ['/api/seo-settings', 'services not JSON', () => ({ services: '["a",' }), 'services'],
    ['/api/seo-settings', 'services not an array', () => ({ services: '{"a":1}' }), 'services'],
    ['/api/seo-settings', 'services with an empty name', () => ({ services: '["Film", " "]' }), 'services'],
    ['/api/seo-settings', 'services with a number', () => ({ services: '[1]' }), 'services'],
    ['/api/seo-settings', 'faqs not JSON', () => ({ faqs: 'question?' }), 'faqs'],
    ['/api/seo-settings', 'faqs without an answer', () => ({ faqs: '[{"question":"Q"}]' }), 'faqs'],
    ['/api/seo-settings', 'faqs as a list of text', () => ({ faqs: '["Q"]' }), 'faqs'],
    ['/api/seo-settings', 'a video as OG image', () => ({ openGraphImageId: video.id }), 'openGraphImageId'],
    ['/api/seo-settings', 'a video as Twitter image', () => ({ twitterImageId: video.id }), 'twitterImageId'],
    ['/api/seo-settings', 'an unknown robots token', () => ({ robotsDirective: 'index, sometimes' }), 'robotsDirective'],
    ['/api/seo-settings', 'an unknown business type', () => ({ businessType: 'Bakery' }), 'businessType'],
    ['/api/seo-settings', 'a text flag', () => ({ enableOpenGraph: 'yes' }), 'enableOpenGraph'],
    ['/api/contact-info', 'a bad email', () => ({ ...VALID_CONTACT, contactEmail: 'studio.example' }), 'contactEmail'],
    ['/api/contact-info', 'an Instagram URL without scheme', () => ({ ...VALID_CONTACT, instagramUrl: 'instagram.com/films' }), 'instagramUrl'],
    ['/api/contact-info', 'an ftp Facebook URL', () => ({ ...VALID_CONTACT, facebookUrl: 'ftp://facebook.com/films' }), 'facebookUrl'],
    ['/api/contact-info', 'a bad LinkedIn URL', () => ({ ...VALID_CONTACT, linkedinUrl: 'linkedin' }), 'linkedinUrl'],
    ['/api/contact-info', 'a phone with letters', () => ({ ...VALID_CONTACT, contactPhone: 'ring ring' }), 'contactPhone'],
  ];
  test.each(cases)('%s: %s → 400 naming %s', async (path, _what, body, field) => {
    const before = (await a.sql.execute('select version from site_state')).rows[0]!.version;
    const res = await admin.json('PUT', path, body());
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.message).toMatch(new RegExp(`^${field}\\b`));
    // Nothing was written.
    expect((await a.sql.execute('select version from site_state')).rows[0]!.version).toBe(before);
  });
});

describe('saves', () => {
  test('SEO fields round-trip exactly and PUT answers the saved settings', async () => {
    const put = await admin.json('PUT', '/api/seo-settings', VALID_SEO);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject(VALID_SEO);
    const get = await new Session(b.url).json('GET', '/api/seo-settings');
    expect(get.body).toMatchObject(VALID_SEO);
    // A partial save keeps the other fields.
    const partial = await admin.json('PUT', '/api/seo-settings', { metaKeywords: 'only this', addressCountry: 'ie', latitude: 10.5 });
    expect(partial.body).toMatchObject({ ...VALID_SEO, metaKeywords: 'only this', addressCountry: 'IE', latitude: '10.5' });
    await admin.json('PUT', '/api/seo-settings', { ...VALID_SEO, enableOpenGraph: true });
  });

  test('section background: set a video, replace with an image, clear', async () => {
    const set = await admin.json('PUT', '/api/website-settings/hero', { backgroundVideoId: video.id, backgroundImageId: null });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ section: 'hero', backgroundVideoId: video.id, backgroundVideo: { url: video.url, type: 'video' } });
    let html = await (await fetch(a.url + '/')).text();
    expect(html).toContain(`data-src="${video.url}"`);

    await admin.json('PUT', '/api/website-settings/hero', { backgroundVideoId: null, backgroundImageId: image.id });
    const list = (await new Session(a.url).json('GET', '/api/website-settings')).body as { section: string; backgroundImage: { url: string } | null; backgroundVideo: unknown }[];
    const hero = list.find((e) => e.section === 'hero')!;
    expect(hero.backgroundVideo).toBeNull();
    expect(hero.backgroundImage?.url).toBe(image.url);
    html = await (await fetch(a.url + '/')).text();
    expect(html).not.toContain(`data-src="${video.url}"`);
    expect(html).toContain(`src="${image.url}"`);

    const cleared = await admin.json('PUT', '/api/website-settings/hero', { backgroundImageId: null });
    expect(cleared.body).toMatchObject({ backgroundImageId: null, backgroundVideoId: null });
  });

  test('branding PUT answers the saved settings with the images resolved', async () => {
    const res = await admin.json('PUT', '/api/branding-settings', {
      companyName: '  Aurora Films ',
      showCompanyText: false,
      logoLightImageId: image.id,
      logoDarkImageId: image2.id,
      faviconImageId: image.id,
      openGraphImageId: image2.id,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      companyName: 'Aurora Films',
      showCompanyText: false,
      logoLightImage: { url: image.url },
      logoDarkImage: { url: image2.url },
      faviconImage: { url: image.url },
      openGraphImage: { url: image2.url },
    });
    const html = await (await fetch(b.url + '/about')).text();
    expect(html).toContain(`<link rel="icon" href="${image.url}"`);
    // Every page carries the branding icon and touch icon once, not only the public ones (000 §4).
    const pages: [string, Session][] = [
      ['/about', new Session(b.url)],
      ['/auth', new Session(b.url)],
      ['/client/login', new Session(b.url)],
      ['/no-such-page', new Session(b.url)],
      ['/admin/website-customization', admin],
    ];
    for (const [path, session] of pages) {
      const page = await (await session.get(path)).text();
      expect(page.match(/<link rel="icon"[^>]*>/g), path).toEqual([`<link rel="icon" href="${image.url}" data-branding-icon>`]);
      expect(page.match(/<link rel="apple-touch-icon"[^>]*>/g), path).toEqual([`<link rel="apple-touch-icon" href="${image.url}">`]);
    }
    // Remove: null clears one image and leaves the rest.
    const removed = await admin.json('PUT', '/api/branding-settings', { companyName: 'Aurora Films', faviconImageId: null });
    expect(removed.body).toMatchObject({ faviconImage: null, logoLightImageId: image.id, showCompanyText: false });
    expect(await (await admin.get('/admin/website-customization')).text()).toContain('<link rel="icon" href="data:,">');
  });
});

describe('live effect', () => {
  const warm = async (server: TestServer, path: string) => {
    await (await fetch(server.url + path)).text();
    const res = await fetch(server.url + path);
    expect(res.headers.get('x-page-cache')).toBe('HIT');
    return res.text();
  };

  test.each([
    ['contact info', '/api/contact-info', '/contact', () => ({ ...VALID_CONTACT, contactEmail: `live-${Date.now()}@films.example` }), (body: any) => body.contactEmail],
    ['branding', '/api/branding-settings', '/', () => ({ companyName: `Live Co ${Date.now()}`, showCompanyText: true }), (body: any) => body.companyName],
    ['SEO', '/api/seo-settings', '/about', () => ({ metaKeywords: `kw-${Date.now()}` }), (body: any) => body.metaKeywords],
  ])('a %s save shows on the next request with the cache warm, in both processes', async (_what, api, page, body, marker) => {
    await warm(a, page);
    await warm(b, page);
    const res = await admin.json('PUT', api, body());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const text = marker(res.body) as string;
    for (const server of [a, b]) {
      const next = await fetch(server.url + page);
      expect(next.headers.get('x-page-cache')).toBe('MISS');
      expect(await next.text()).toContain(text);
    }
  });

  test('a section background save shows on / through the second process', async () => {
    await warm(b, '/');
    await admin.json('PUT', '/api/website-settings/hero', { backgroundVideoId: video.id });
    expect(await (await fetch(b.url + '/')).text()).toContain(`data-src="${video.url}"`);
    await admin.json('PUT', '/api/website-settings/hero', { backgroundVideoId: null });
  });
});

describe('sitemap', () => {
  test('generate-sitemap counts the public pages and portfolio videos; the XML lists and escapes them', async () => {
    const odd = await insertMedia(a.sql, a.mediaDir, { title: 'Tom & Jerry <cut> "final"', type: 'video', portfolio: true, tags: ['music video', 'r&b'] });
    await insertMedia(a.sql, a.mediaDir, { title: 'Private cut', type: 'video', portfolio: false });
    await insertMedia(a.sql, a.mediaDir, { title: 'Portfolio still', type: 'image', portfolio: true });
    const expected = Number((await a.sql.execute(`select count(*) as n from media where type = 'video' and show_in_portfolio = 1`)).rows[0]!.n);
    expect(expected).toBe(2);

    // Issue 21: pages = the seven public pages (Terms of Service since issue 53) plus a watch page per portfolio or featured item.
    const watch = Number((await a.sql.execute(`select count(*) as n from media where show_in_portfolio = 1 or is_featured = 1`)).rows[0]!.n);
    const res = await admin.json('POST', '/api/generate-sitemap');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ pages: 7 + watch, watchPages: watch, videos: expected });

    const xmlRes = await fetch(b.url + '/sitemap-videos.xml');
    expect(xmlRes.headers.get('content-type')).toContain('application/xml');
    const xml = await xmlRes.text();
    // One <url> per film, at its own watch page.
    expect(xml.match(/<url>/g)).toHaveLength(expected);
    expect(xml.match(/<loc>[^<]+\/portfolio\/[a-z0-9-]+<\/loc>/g)).toHaveLength(expected);
    expect(xml).toContain('/portfolio/tom-and-jerry-cut-final</loc>');
    expect(xml.match(/<video:video>/g)).toHaveLength(expected);
    expect(xml).toContain('<video:title>Tom &amp; Jerry &lt;cut&gt; &quot;final&quot;</video:title>');
    expect(xml).toContain('<video:tag>r&amp;b</video:tag>');
    expect(xml).toMatch(new RegExp(`<video:content_loc>https?://[^<]+${odd.url}</video:content_loc>`));
    expect(xml).toContain('<video:thumbnail_loc>');
    expect(xml).toContain('<video:description>');
    expect(xml).not.toContain('Private cut');
    expect(xml).not.toContain('Portfolio still');
    // No raw ampersand that is not an entity.
    expect(xml).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);

    const robots = await (await fetch(a.url + '/robots.txt')).text();
    expect(robots).toMatch(/Sitemap: \S+\/sitemap-videos\.xml/);
  });
});
