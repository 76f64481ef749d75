// Website Customization (001 §2, §3, §5, §8) end to end: the admin screen saves, the public
// pages (seen by an anonymous visitor, through the page cache) show it on the next request.
import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from '@playwright/test';
import { test, expect, storeCookieChoice } from './fixtures.ts';
import { islandsReady, signInAs } from './admin-helpers.ts';
import { ADMIN, type TestServer } from '../helpers/server.ts';
import { insertMedia } from '../helpers/public-media.ts';

const SCREEN = '/admin/website-customization';

/** An image row with a real JPEG on disk, so it renders with a size. */
async function insertImage(server: TestServer, title: string, tags: string[] = [], color = '#c0a060'): Promise<{ id: number; url: string }> {
  const key = randomBytes(16).toString('hex');
  fs.mkdirSync(path.join(server.mediaDir, key), { recursive: true });
  const file = path.join(server.mediaDir, key, 'original.jpg');
  await sharp({ create: { width: 240, height: 80, channels: 3, background: color } }).jpeg().toFile(file);
  const url = `/media/${key}/original.jpg`;
  const r = await server.sql.execute({
    sql: `insert into media (title, type, storage_key, url, filename, file_size, mime_type, width, height, tags) values (?, 'image', ?, ?, 'original.jpg', ?, 'image/jpeg', 240, 80, ?) returning id`,
    args: [title, key, url, fs.statSync(file).size, JSON.stringify(tags)],
  });
  return { id: Number(r.rows[0]!.id), url };
}

async function openScreen(page: Page, tab?: string) {
  await signInAs(page, ADMIN.username, ADMIN.password, SCREEN);
  await expect(page.getByRole('heading', { name: 'Website Customization', level: 1 })).toBeVisible();
  if (tab) await page.getByRole('tab', { name: tab, exact: true }).click();
}

/** Picks `title` in the open picker dialog after searching for `query`. */
async function pick(page: Page, query: string, title: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('searchbox', { name: /search media/i }).fill(query);
  await dialog.getByRole('button', { name: new RegExp(title) }).click();
}

/** Clicks `button` and waits for the write it sends to succeed, then for `toastText`. */
async function save(page: Page, button: string, api: string, toastText: string) {
  const done = page.waitForResponse((r) => r.url().includes(api) && r.request().method() !== 'GET');
  await page.getByRole('button', { name: button }).click();
  expect((await done).status()).toBe(200);
  await expect(page.getByText(toastText)).toBeVisible();
}

/** An anonymous visitor (no staff cookie), so public pages come through the page cache. */
async function visitor(browser: Browser, baseURL: string, theme: 'light' | 'dark' = 'dark') {
  const context = await browser.newContext({ baseURL });
  await context.addCookies([{ name: 'studio-theme', value: theme, url: baseURL }]);
  const page = await context.newPage();
  await storeCookieChoice(page);
  await page.addInitScript((t) => localStorage.setItem('studio-theme', t), theme);
  return { page, close: () => context.close() };
}

test('the screen has seven tabs and the section cards of 001 §2', async ({ page }) => {
  await openScreen(page);
  await expect(page.getByRole('tab')).toHaveText(['Homepage', 'Portfolio', 'About', 'Services', 'Branding', 'SEO', 'Contact Info']);
  const cards = async (tab: string, names: string[]) => {
    await page.getByRole('tab', { name: tab, exact: true }).click();
    for (const n of names) await expect(page.getByRole('region', { name: n, exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Select New Background' })).toHaveCount(names.length);
  };
  await cards('Homepage', ['Hero', 'What We Do', 'Who We Work With', 'How We Work', 'Retainer Partnerships', "Who We've Worked With", "Let's Connect"]);
  await cards('Portfolio', ['Portfolio Header', 'Portfolio Gallery']);
  await cards('About', ['About Header', 'About Mission Image', 'About Values']);
  await cards('Services', ['Services Header', 'Services Section', 'Services Call to Action']);
  await cards('Contact Info', ['Contact Header', 'Contact Info']);
});

test('a hero background video set in the picker plays on /', async ({ page, server, browser, baseURL }) => {
  const video = await insertMedia(server.sql, server.mediaDir, { title: 'Hero reel', type: 'video', tags: ['showreel'], withFile: true });
  await insertImage(server, 'Unrelated still');
  const anon = await visitor(browser, baseURL!);
  await anon.page.goto('/');
  await anon.page.goto('/'); // cache warm

  await openScreen(page, 'Homepage');
  const hero = page.getByRole('region', { name: 'Hero', exact: true });
  await hero.getByRole('button', { name: 'Select New Background' }).click();
  const dialog = page.getByRole('dialog');
  // Search by tag narrows the library to the video.
  await dialog.getByRole('searchbox', { name: /search media/i }).fill('showreel');
  await expect(dialog.getByRole('listitem')).toHaveCount(1);
  const put = page.waitForResponse((r) => r.url().endsWith('/api/website-settings/hero'));
  await dialog.getByRole('button', { name: /Hero reel/ }).click();
  expect((await put).status()).toBe(200);
  await expect(page.getByText('Background updated successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(hero.getByTestId('current-background')).toHaveText('Hero reel');

  await anon.page.goto('/');
  const bg = anon.page.getByTestId('hero').locator('video[data-bg-video]');
  await expect(bg).toHaveAttribute('data-src', video.url);
  await expect.poll(() => bg.evaluate((v: HTMLVideoElement, url) => (v.src.endsWith(url) ? v.readyState : -1), video.url)).toBeGreaterThanOrEqual(1);
  await anon.close();

  // The stored value is shown after a reload.
  await page.reload();
  await islandsReady(page);
  await expect(page.getByRole('region', { name: 'Hero', exact: true }).getByTestId('current-background')).toHaveText('Hero reel');
});

test('light and dark logos each show in their theme', async ({ page, server, browser, baseURL }) => {
  const light = await insertImage(server, 'Logo for light', ['logo'], '#202020');
  const dark = await insertImage(server, 'Logo for dark', ['logo'], '#f0f0f0');
  await openScreen(page, 'Branding');
  await page.getByRole('button', { name: 'Choose Light Mode Logo' }).click();
  await pick(page, 'light', 'Logo for light');
  await page.getByRole('button', { name: 'Choose Dark Mode Logo' }).click();
  await pick(page, 'Logo for dark', 'Logo for dark');
  await save(page, 'Save Branding Settings', '/api/branding-settings', 'Branding settings updated');

  for (const theme of ['light', 'dark'] as const) {
    const anon = await visitor(browser, baseURL!, theme);
    await anon.page.goto('/about');
    const nav = anon.page.getByRole('navigation', { name: 'Main' });
    const [shown, hidden] = theme === 'light' ? [light, dark] : [dark, light];
    await expect(nav.locator(`img[src="${shown.url}"]`)).toBeVisible();
    await expect(nav.locator(`img[src="${hidden.url}"]`)).toBeHidden();
    await anon.close();
  }

  // Remove the dark logo: the light one is then used in both themes.
  await page.getByRole('button', { name: 'Remove Dark Mode Logo' }).click();
  await save(page, 'Save Branding Settings', '/api/branding-settings', 'Branding settings updated');
  const anon = await visitor(browser, baseURL!, 'dark');
  await anon.page.goto('/about');
  await expect(anon.page.getByRole('navigation', { name: 'Main' }).locator(`img[src="${light.url}"]`)).toBeVisible();
  await expect(anon.page.locator(`img[src="${dark.url}"]`)).toHaveCount(0);
  await anon.close();
});

test('changing the favicon and the Open Graph image changes the head tags', async ({ page, server, browser, baseURL }) => {
  const icons = [await insertImage(server, 'Icon one'), await insertImage(server, 'Icon two')];
  const shares = [await insertImage(server, 'Share one'), await insertImage(server, 'Share two')];
  const anon = await visitor(browser, baseURL!);
  await openScreen(page, 'Branding');
  for (let i = 0; i < 2; i++) {
    await page.getByRole('button', { name: 'Choose Favicon' }).click();
    await pick(page, `Icon ${i ? 'two' : 'one'}`, `Icon ${i ? 'two' : 'one'}`);
    await page.getByRole('button', { name: 'Choose Open Graph Image' }).click();
    await pick(page, `Share ${i ? 'two' : 'one'}`, `Share ${i ? 'two' : 'one'}`);
    await save(page, 'Save Branding Settings', '/api/branding-settings', 'Branding settings updated');
    await anon.page.goto('/services');
    await expect(anon.page.locator('link[rel="icon"]')).toHaveAttribute('href', icons[i]!.url);
    await expect(anon.page.locator('meta[property="og:image"]')).toHaveAttribute('content', new RegExp(`${shares[i]!.url}$`));
  }
  await anon.close();
});

test('contact info edits show in the footer; invalid values are caught before sending', async ({ page, browser, baseURL }) => {
  const anon = await visitor(browser, baseURL!);
  await anon.page.goto('/');
  await anon.page.goto('/');
  await openScreen(page, 'Contact Info');
  const email = page.getByLabel('Email', { exact: true });
  await email.fill('not-an-email');
  await page.getByRole('button', { name: 'Save Contact Information' }).click();
  await expect(page.getByText('Email must be a valid email address')).toBeVisible();

  await email.fill('bookings@films.example');
  await page.getByLabel('Phone', { exact: true }).fill('0116 496 0999');
  await page.getByLabel('Address').fill('5 Film Lane, Leicester LE1 5AA');
  await page.getByLabel('Instagram URL').fill('https://instagram.com/films.example');
  await save(page, 'Save Contact Information', '/api/contact-info', 'Contact information updated successfully');

  await anon.page.goto('/');
  const footer = anon.page.getByRole('contentinfo');
  await expect(footer.getByTestId('contact-email')).toHaveText('bookings@films.example');
  await expect(footer.getByTestId('contact-phone')).toHaveText('0116 496 0999');
  await expect(footer.getByTestId('contact-address')).toHaveText('5 Film Lane, Leicester LE1 5AA');
  await expect(footer.getByRole('link', { name: /instagram/i })).toHaveAttribute('href', 'https://instagram.com/films.example');
  await anon.close();

  await page.reload();
  await islandsReady(page);
  await page.getByRole('tab', { name: 'Contact Info' }).click();
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue('bookings@films.example');
});

test('SEO fields round-trip exactly after a reload, JSON is checked with clear errors', async ({ page }) => {
  await openScreen(page, 'SEO');
  const sub = (name: string) => page.getByRole('tab', { name, exact: true }).click();

  await sub('Basic SEO');
  await page.getByLabel('Meta Title').fill('Aurora Films | Leicester');
  await expect(page.getByText('24/60 characters')).toBeVisible();
  await page.getByLabel('Meta Description').fill('Wedding & brand films.');
  await expect(page.getByText('22/160 characters')).toBeVisible();
  await page.getByLabel('Meta Keywords').fill('weddings, brand film');
  await page.getByLabel('Canonical URL').fill('https://aurora.example/');
  await expect(page.getByLabel('Canonical URL')).toHaveAttribute('type', 'url');

  await sub('Social Media');
  await page.getByRole('switch', { name: /Enable Open Graph/ }).uncheck();
  await page.getByRole('switch', { name: /Enable Twitter Cards/ }).uncheck();

  await sub('Business Data');
  const business: [string, string][] = [
    ['Business Name', 'Aurora Films Ltd'],
    ['Business Description', 'Films for people who care.'],
    ['Business URL', 'https://aurora.example'],
    ['Business Email', 'hello@aurora.example'],
    ['Business Phone', '+44 116 496 0000'],
    ['Street Address', '12 Granby Street'],
    ['Locality', 'Leicester'],
    ['Region', 'East Midlands'],
    ['Postal Code', 'LE1 6EJ'],
    ['Country', 'IE'],
    ['Latitude', '52.6345'],
    ['Longitude', '-1.1302'],
  ];
  for (const [label, value] of business) await page.getByLabel(label, { exact: true }).fill(value);
  await expect(page.getByLabel('Business Email')).toHaveAttribute('type', 'email');
  await expect(page.getByLabel('Business Phone')).toHaveAttribute('type', 'tel');
  await page.getByLabel('Business Type').selectOption('LocalBusiness');
  await page.getByLabel('Services (JSON)').fill('Weddings, Brands');
  await page.getByLabel('FAQs (JSON)').fill('[{"question": "Where?"}]');

  await sub('Advanced');
  await page.getByRole('switch', { name: /Enable Structured Data/ }).uncheck();
  await page.getByLabel('Robots Directive').fill('noindex, nofollow');

  // Bad JSON: the form jumps to the sub-tab with the problem and sends nothing.
  await page.getByRole('button', { name: 'Update SEO Settings' }).click();
  await expect(page.getByRole('tab', { name: 'Business Data' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('Services must be valid JSON')).toBeVisible();
  await expect(page.getByText('FAQs item 1 needs a non-empty answer')).toBeVisible();
  await page.getByLabel('Services (JSON)').fill('["Weddings","Brands"]');
  await page.getByLabel('FAQs (JSON)').fill('[{"question":"Where?","answer":"Leicester"}]');
  await save(page, 'Update SEO Settings', '/api/seo-settings', 'SEO settings updated');

  await page.reload();
  await islandsReady(page);
  await page.getByRole('tab', { name: 'SEO', exact: true }).click();
  await expect(page.getByLabel('Meta Title')).toHaveValue('Aurora Films | Leicester');
  await expect(page.getByLabel('Meta Description')).toHaveValue('Wedding & brand films.');
  await expect(page.getByLabel('Meta Keywords')).toHaveValue('weddings, brand film');
  await expect(page.getByLabel('Canonical URL')).toHaveValue('https://aurora.example/');
  await sub('Social Media');
  await expect(page.getByRole('switch', { name: /Enable Open Graph/ })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: /Enable Twitter Cards/ })).not.toBeChecked();
  await sub('Business Data');
  for (const [label, value] of business) await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
  await expect(page.getByLabel('Business Type')).toHaveValue('LocalBusiness');
  await expect(page.getByLabel('Services (JSON)')).toHaveValue('["Weddings","Brands"]');
  await expect(page.getByLabel('FAQs (JSON)')).toHaveValue('[{"question":"Where?","answer":"Leicester"}]');
  await sub('Advanced');
  await expect(page.getByRole('switch', { name: /Enable Structured Data/ })).not.toBeChecked();
  await expect(page.getByLabel('Robots Directive')).toHaveValue('noindex, nofollow');

  // Put crawling back for the other tests' pages.
  await page.getByLabel('Robots Directive').fill('index, follow');
  await save(page, 'Update SEO Settings', '/api/seo-settings', 'SEO settings updated');
});

test('Generate Sitemap reports the pages (watch pages included) and the videos', async ({ page, server, request }) => {
  await insertMedia(server.sql, server.mediaDir, { title: 'Portfolio film A', type: 'video', portfolio: true });
  await insertMedia(server.sql, server.mediaDir, { title: 'Portfolio film B & C', type: 'video', portfolio: true });
  await insertMedia(server.sql, server.mediaDir, { title: 'Unlisted film', type: 'video', portfolio: false });
  const listed = '(show_in_portfolio = 1 or is_featured = 1)';
  const videos = Number((await server.sql.execute(`select count(*) as n from media where type = 'video' and ${listed}`)).rows[0]!.n);
  const watchPages = Number((await server.sql.execute(`select count(*) as n from media where ${listed}`)).rows[0]!.n);
  expect(videos).toBeGreaterThanOrEqual(2);

  await openScreen(page, 'SEO');
  await page.getByRole('button', { name: 'Generate Sitemap' }).click();
  await expect(page.getByText('Sitemap generated successfully')).toBeVisible();
  await expect(page.getByText(`${7 + watchPages} pages and ${videos} videos included.`)).toBeVisible();
  await expect(page.getByTestId('sitemap-videos')).toHaveText(String(videos));
  await expect(page.getByTestId('sitemap-pages')).toHaveText(String(7 + watchPages)); // seven public pages (Terms of Service since issue 53)
  await expect(page.getByTestId('sitemap-watch-pages')).toHaveText(String(watchPages));

  const xml = await (await request.get('/sitemap-videos.xml')).text();
  expect(xml.match(/<video:video>/g)?.length).toBe(videos);
  expect(xml).toContain('<video:title>Portfolio film B &amp; C</video:title>');
  expect(xml).toMatch(/<loc>[^<]*\/portfolio\/portfolio-film-b-and-c<\/loc>/);
  expect(xml).not.toContain('Unlisted film');
});

// Issue 19 #14: a validation message goes as soon as the field is valid again.
test('Branding: "Company name is required" clears as soon as a name is typed', async ({ page }) => {
  await openScreen(page, 'Branding');
  const name = page.getByRole('textbox', { name: 'Company Name' });
  await name.fill('');
  await page.getByRole('button', { name: 'Save Branding Settings' }).click();
  await expect(page.getByText('Company name is required')).toBeVisible();
  await name.pressSequentially('N');
  await expect(page.getByText('Company name is required')).toBeHidden();
});

test('portfolio categories edited under Website → Portfolio become the public filter; a category change lands at the grid', async ({ page, server, browser, baseURL }) => {
  // 13 portfolio items (the filter shows above 12): three of them events.
  for (let i = 0; i < 13; i++) await insertImage(server, `Work ${i}`, i < 3 ? ['events'] : ['commercial']);
  await server.sql.execute('UPDATE media SET show_in_portfolio = 1');
  await openScreen(page, 'Portfolio');
  const card = page.getByRole('form', { name: 'Portfolio categories' });
  const names = () => card.getByRole('textbox').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  expect(await names()).toEqual(['Commercial', 'Documentary', 'Corporate', 'Music Video']);

  // A second name for an existing category is caught before sending.
  await card.getByRole('button', { name: 'Add category' }).click();
  await card.getByLabel('Category 5', { exact: true }).fill('commercial');
  let sent = 0;
  page.on('request', (r) => r.url().includes('/api/portfolio-categories') && r.method() === 'PUT' && sent++);
  await card.getByRole('button', { name: 'Save Categories' }).click();
  await expect(card.getByText('"commercial" is the same category as "Commercial"')).toBeVisible();
  expect(sent).toBe(0);
  await card.getByLabel('Category 5', { exact: true }).fill('Events');
  await expect(card.getByText('is the same category')).toHaveCount(0);
  await card.getByRole('button', { name: 'Remove Corporate' }).click();
  await card.getByRole('button', { name: 'Move Events up' }).click();
  expect(await names()).toEqual(['Commercial', 'Documentary', 'Events', 'Music Video']);
  await save(page, 'Save Categories', '/api/portfolio-categories', 'Portfolio categories updated');
  await page.reload();
  await page.getByRole('tab', { name: 'Portfolio', exact: true }).click();
  expect(await names()).toEqual(['Commercial', 'Documentary', 'Events', 'Music Video']);

  const v = await visitor(browser, baseURL!);
  await v.page.goto('/portfolio');
  const filter = v.page.getByRole('navigation', { name: 'Filter by category' });
  await expect(filter.getByRole('link')).toHaveText(['All', 'Commercial', 'Documentary', 'Events', 'Music Video']);
  await filter.getByRole('link', { name: 'Events' }).click();
  await expect(v.page).toHaveURL(/\/portfolio\?category=events#gallery$/);
  await expect(v.page.getByTestId('media-card')).toHaveCount(3);
  // Landed at the filter, not the top of the page: the filter is in view below the header.
  expect(await v.page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
  await expect(filter).toBeInViewport();
  await v.close();
});

for (const theme of ['light', 'dark'] as const) {
  test(`the Portfolio tab with its categories is axe clean in the ${theme} theme`, async ({ page, server }) => {
    await page.context().addCookies([{ name: 'studio-theme', value: theme, url: server.url }]);
    await page.addInitScript((t) => localStorage.setItem('studio-theme', t), theme);
    await openScreen(page, 'Portfolio');
    const card = page.getByRole('form', { name: 'Portfolio categories' });
    await card.getByRole('button', { name: 'Add category' }).click();
    await card.getByRole('button', { name: 'Save Categories' }).click();
    await expect(card.getByText('Category is required')).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).analyze();
    const serious = violations.filter((x) => x.impact === 'serious' || x.impact === 'critical');
    expect(serious.map((x) => `${x.id}: ${x.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}
