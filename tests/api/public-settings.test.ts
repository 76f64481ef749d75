// The public read endpoints (000 §3, §7) and the server-rendered SEO of the public pages.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { changeSite, insertMedia } from '../helpers/public-media.ts';

const SITE_URL = 'https://films.example';
let server: TestServer;
beforeAll(async () => {
  // No worker: the media rows here are written straight into the database with no files, and a
  // worker's job for one (failing on the missing file) would change what the pages show
  // whenever it happened to run.
  server = await startServer({ env: { SITE_URL, WORKER: 'off' } });
});
afterAll(() => server?.stop());

const get = async (path: string) => {
  const res = await fetch(server.url + path);
  return { status: res.status, body: await res.json(), res };
};
const html = async (path: string) => {
  const res = await fetch(server.url + path);
  return { res, text: await res.text() };
};

const SECTIONS = [
  'hero', 'what_we_do', 'who_we_work_with', 'how_we_work', 'retainer_partnerships', 'who_weve_worked_with', 'lets_connect',
  'portfolio_header', 'portfolio_gallery', 'about_header', 'about_mission_image', 'about_values', 'services_header',
  'services_section', 'services_cta', 'contact_header', 'contact_info',
];

describe('GET /api/website-settings', () => {
  test('lists every section, without backgrounds on a fresh install', async () => {
    const { status, body } = await get('/api/website-settings');
    expect(status).toBe(200);
    expect(body.map((e: { section: string }) => e.section)).toEqual(SECTIONS);
    for (const e of body) {
      expect(e.backgroundImage).toBeNull();
      expect(e.backgroundVideo).toBeNull();
    }
  });

  test('a set background carries its url and title', async () => {
    const img = await insertMedia(server.sql, server.mediaDir, { title: 'Hero still', type: 'image' });
    const vid = await insertMedia(server.sql, server.mediaDir, { title: 'Hero reel', type: 'video' });
    await changeSite(server.sql, { sql: `update website_settings set background_image_id = ?, background_video_id = ? where section = 'hero'`, args: [img.id, vid.id] });
    const { body } = await get('/api/website-settings');
    const hero = body.find((e: { section: string }) => e.section === 'hero');
    expect(hero.backgroundImage).toMatchObject({ url: img.url, title: 'Hero still' });
    expect(hero.backgroundVideo).toMatchObject({ url: vid.url, title: 'Hero reel' });
    // Video wins over image on the page (000 §3).
    const page = await html('/');
    expect(page.text).toContain(`data-src="${vid.url}"`);
    expect(page.text).not.toContain(`src="${img.url}"`);
    await changeSite(server.sql, `update website_settings set background_image_id = null, background_video_id = null where section = 'hero'`);
  });
});

describe('GET /api/contact-info', () => {
  test('empty strings when unset; the footer shows placeholders and no social links', async () => {
    const { status, body } = await get('/api/contact-info');
    expect(status).toBe(200);
    expect(body).toEqual({ contactEmail: '', contactPhone: '', contactAddress: '', instagramUrl: '', facebookUrl: '', linkedinUrl: '' });
    const page = await html('/about');
    expect(page.text).toContain('hello@studio.example');
    expect(page.text).not.toContain('Instagram (opens in a new tab)');
  });

  test('answers the stored details, which the pages then show', async () => {
    await changeSite(server.sql, 
      `update contact_info set contact_email = 'films@studio.test', contact_phone = '0116 123 4567', contact_address = '1 Market St, Leicester', instagram_url = 'https://instagram.com/studio' where id = 1`,
    );
    const { body } = await get('/api/contact-info');
    expect(body).toMatchObject({ contactEmail: 'films@studio.test', contactPhone: '0116 123 4567', contactAddress: '1 Market St, Leicester', instagramUrl: 'https://instagram.com/studio', facebookUrl: '' });
    const page = await html('/contact');
    expect(page.text).toContain('films@studio.test');
    expect(page.text).toContain('href="https://instagram.com/studio"');
    expect(page.text).not.toContain('Facebook (opens in a new tab)');
  });
});

describe('GET /api/seo-settings', () => {
  test('answers the defaults with four FAQs and null image urls', async () => {
    const { status, body } = await get('/api/seo-settings');
    expect(status).toBe(200);
    expect(body).toMatchObject({ robotsDirective: 'index, follow', enableOpenGraph: true, enableTwitterCards: true, enableStructuredData: true, openGraphImageUrl: null, twitterImageUrl: null });
    expect(JSON.parse(body.faqs)).toHaveLength(4);
    expect(body).not.toHaveProperty('updatedBy');
  });

  test('image urls follow the chosen media; Open Graph falls back to the Twitter image', async () => {
    const tw = await insertMedia(server.sql, server.mediaDir, { title: 'Share', type: 'image' });
    await changeSite(server.sql, { sql: 'update seo_settings set twitter_image_id = ? where id = 1', args: [tw.id] });
    const { body } = await get('/api/seo-settings');
    expect(body.twitterImageUrl).toBe(tw.url);
    expect(body.twitterImage.url).toBe(tw.url);
    expect(body.openGraphImageUrl).toBeNull();
    const page = await html('/services');
    expect(page.text).toContain(`<meta property="og:image" content="${SITE_URL}${tw.url}">`);
    expect(page.text).toContain(`<meta name="twitter:image" content="${SITE_URL}${tw.url}">`);
    await changeSite(server.sql, 'update seo_settings set twitter_image_id = null where id = 1');
  });
});

describe('GET /api/branding-settings', () => {
  test('company name default, no logos and no favicon', async () => {
    const { status, body } = await get('/api/branding-settings');
    expect(status).toBe(200);
    expect(body).toMatchObject({ companyName: 'Studio', showCompanyText: true, logoLightImage: null, logoDarkImage: null, faviconImage: null });
    const page = await html('/');
    expect(page.text).toContain('<link rel="icon" href="data:,">');
  });

  test('favicon and logos come from the chosen media', async () => {
    const fav = await insertMedia(server.sql, server.mediaDir, { title: 'Icon', type: 'image' });
    const dark = await insertMedia(server.sql, server.mediaDir, { title: 'Logo dark', type: 'image' });
    await changeSite(server.sql, { sql: `update branding_settings set favicon_image_id = ?, logo_dark_image_id = ?, company_name = 'Lumen Films' where id = 1`, args: [fav.id, dark.id] });
    const { body } = await get('/api/branding-settings');
    expect(body.faviconImage.url).toBe(fav.url);
    expect(body.logoDarkImage.url).toBe(dark.url);
    expect(body.companyName).toBe('Lumen Films');
    const page = await html('/');
    expect(page.text).toContain(`<link rel="icon" href="${fav.url}" data-branding-icon>`);
    expect(page.text).toContain(`src="${dark.url}"`);
    expect(page.text).toContain('Lumen Films');
    await changeSite(server.sql, `update branding_settings set favicon_image_id = null, logo_dark_image_id = null, company_name = 'Studio' where id = 1`);
  });
});

describe('public pages', () => {
  test.each(['/', '/portfolio', '/about', '/services', '/contact', '/privacy-policy', '/terms-of-service'])('%s: canonical from SITE_URL, robots meta, no cookie for visitors', async (path) => {
    const { res, text } = await html(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(text).toContain(`<link rel="canonical" href="${SITE_URL}${path === '/' ? '/' : path}">`);
    expect(text).toContain('<meta name="robots" content="index, follow">');
    expect(text).toContain('"@type":"ProfessionalService"');
    expect(text).toContain('"priceRange":"£££"');
  });

  test('robots directive, Open Graph and Twitter switches are honoured', async () => {
    await changeSite(server.sql, `update seo_settings set robots_directive = 'noindex, nofollow', enable_open_graph = 0, enable_twitter_cards = 0, enable_structured_data = 0 where id = 1`);
    const { text } = await html('/about');
    expect(text).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(text).not.toContain('og:title');
    expect(text).not.toContain('twitter:card');
    expect(text).not.toContain('application/ld+json');
    await changeSite(server.sql, `update seo_settings set robots_directive = 'index, follow', enable_open_graph = 1, enable_twitter_cards = 1, enable_structured_data = 1 where id = 1`);
  });

  test('database text cannot close the JSON-LD script tag', async () => {
    const evil = '</script><script>window.pwned=1</script>';
    await changeSite(server.sql, { sql: 'update seo_settings set business_name = ?, faqs = ? where id = 1', args: [evil, JSON.stringify([{ question: evil, answer: 'a & b' }])] });
    const { text } = await html('/');
    // Inside a quoted attribute (og:site_name) the text is inert; anywhere else it must not appear raw.
    expect(text).toContain(`content="${evil}"`);
    // (og:title and og:site_name both hold it, the home title being "<name> | …").
    expect(text.replace(/content="[^"]*"/g, '')).not.toContain('<script>window.pwned');
    expect(text).toContain('\\u003c/script\\u003e\\u003cscript\\u003ewindow.pwned=1');
    const blocks = [...text.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
    expect(blocks.find((b) => b['@type'] === 'ProfessionalService').name).toBe(evil);
    expect(blocks.find((b) => b['@type'] === 'FAQPage').mainEntity[0].name).toBe(evil);
    await changeSite(server.sql, `update seo_settings set business_name = '', faqs = '[]' where id = 1`);
  });

  test('home carries the four default FAQs when none are stored', async () => {
    const { text } = await html('/');
    const blocks = [...text.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
    const faq = blocks.find((b) => b['@type'] === 'FAQPage');
    expect(faq.mainEntity).toHaveLength(4);
    const biz = blocks.find((b) => b['@type'] === 'ProfessionalService');
    expect(biz.address).toMatchObject({ addressLocality: 'Leicestershire', addressCountry: 'GB' });
    expect(biz.geo).toMatchObject({ '@type': 'GeoCoordinates', latitude: 52.6369, longitude: -1.1398 });
  });

  test('portfolio videos become VideoObjects', async () => {
    await insertMedia(server.sql, server.mediaDir, { title: 'Gala night', type: 'video', portfolio: true });
    await insertMedia(server.sql, server.mediaDir, { title: 'A still', type: 'image', portfolio: true });
    const { text } = await html('/portfolio');
    const blocks = [...text.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
    const videos = blocks.filter((b) => b['@type'] === 'VideoObject');
    expect(videos.map((v) => v.name)).toEqual(['Gala night']);
    expect(videos[0].contentUrl).toMatch(new RegExp(`^${SITE_URL}/media/[a-f0-9]{32}/original\\.mp4$`));
    expect(videos[0].thumbnailUrl).toBeTruthy();
    expect(videos[0].uploadDate).toBeTruthy();
  });

  test('robots.txt names the sitemap', async () => {
    const res = await fetch(server.url + '/robots.txt');
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toContain('User-agent: *');
    expect(text).toContain('Disallow: /admin');
    expect(text).toContain(`Sitemap: ${SITE_URL}/sitemap-index.xml`);
  });
});
