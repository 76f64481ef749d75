// Stills proofing in the browser (issue 42): a client hearts, picks to the list's cap (the next
// pick is refused with the reason), submits (locked), and staff reopen it with a note they see;
// a guest on a link with a download PIN gets a web-size image only after the PIN; a 375 px
// walk-through without sideways scrolling; axe clean in both themes (viewer, full-screen view,
// staff editor).
import fs from 'node:fs';
import sharp from 'sharp';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { test, expect, ADMIN, storeCookieChoice } from './fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { islandsReady, signInAs } from './admin-helpers.ts';
import { seriousViolations } from './public-helpers.ts';
import { createClientWithPortalLogin } from '../helpers/portal-fixtures.ts';
import { shotJpeg } from '../helpers/proofing.ts';

const SHOTS = ['IMG_0001.jpg', 'IMG_0002.jpg', 'IMG_0003.jpg', 'IMG_0004.jpg', 'IMG_0005.jpg'];

/** A gallery made through the API, its sizes made by the job queue. */
async function makeGallery(req: APIRequestContext, server: TestServer, title: string, settings: Record<string, unknown> = {}) {
  const ids: number[] = [];
  for (const [i, name] of SHOTS.entries()) {
    const buffer = await shotJpeg({ name, taken: `2026:06:0${i + 1} 12:00:00`, width: 1500 + i * 100, height: 1000, colour: ['#7c2d12', '#1e3a8a', '#14532d', '#581c87', '#713f12'][i] });
    const res = await req.post('/api/media', { headers: { Origin: server.url }, multipart: { title: name.replace('.jpg', ''), file: { name, mimeType: 'image/jpeg', buffer } } });
    expect(res.status()).toBe(201);
    ids.push((await res.json()).id);
  }
  const g = await (await req.post('/api/galleries', { headers: { Origin: server.url }, data: { title, mediaIds: ids } })).json();
  if (Object.keys(settings).length) expect((await req.patch(`/api/galleries/${g.id}`, { headers: { Origin: server.url }, data: settings })).status()).toBe(200);
  await expect.poll(async () => (await (await req.get(`/api/galleries/${g.id}`)).json()).images.every((i: { ready: boolean }) => i.ready), { timeout: 90_000 }).toBe(true);
  return g as { id: number };
}

async function staffPage(browser: Browser, server: TestServer): Promise<Page> {
  const ctx = await browser.newContext({ baseURL: server.url });
  await storeCookieChoice(ctx);
  const page = await ctx.newPage();
  await signInAs(page, ADMIN.username, ADMIN.password);
  return page;
}

async function clientPage(browser: Browser, server: TestServer, login: { username: string; password: string }, viewport?: { width: number; height: number }): Promise<Page> {
  const ctx = await browser.newContext({ baseURL: server.url, ...(viewport ? { viewport } : {}) });
  await storeCookieChoice(ctx);
  const page = await ctx.newPage();
  expect((await page.request.post('/api/client/login', { data: { username: login.username, password: login.password } })).status()).toBe(200);
  return page;
}

const tiles = (page: Page) => page.getByTestId('still-tile');

test('a client hearts, picks to the cap (the next refused), submits; staff reopen with a note', async ({ browser, server }) => {
  test.setTimeout(180_000);
  const staff = await staffPage(browser, server);
  const login = await createClientWithPortalLogin(server, 'Couple');
  const g = await makeGallery(staff.request, server, 'Summer wedding');
  const origin = { headers: { Origin: server.url } };
  await staff.request.post(`/api/galleries/${g.id}/lists`, { ...origin, data: { name: 'Pick 2 for print', minCount: 1, maxCount: 2 } });
  await staff.request.put(`/api/galleries/${g.id}/clients`, { ...origin, data: { clientIds: [login.clientId] } });
  const page = await clientPage(browser, server, login);
  try {
    // The portal lists it; it opens on its cover and title.
    await page.goto('/client/dashboard');
    await page.getByRole('link', { name: /Summer wedding/ }).click();
    await islandsReady(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Summer wedding' })).toBeVisible();
    await expect(tiles(page)).toHaveCount(5);

    // Heart and compare exist on the tile the pointer or the keyboard is on (a tile stays small:
    // a 2,000-image grid mounts them while scrolling), and stay while they are on.
    await expect(tiles(page).nth(0).getByTestId('heart')).toHaveCount(0);
    await tiles(page).nth(0).hover();
    await tiles(page).nth(0).getByTestId('heart').click();
    await expect(tiles(page).nth(0).getByTestId('heart')).toHaveAttribute('aria-pressed', 'true');
    await page.mouse.move(0, 0);
    await expect(tiles(page).nth(0).getByTestId('heart')).toHaveAttribute('aria-pressed', 'true');
    await expect(tiles(page).nth(1).getByTestId('heart')).toHaveCount(0);
    // From the keyboard: Tab from a tile's picture reaches its controls.
    await tiles(page).nth(1).getByRole('button', { name: 'Open IMG_0002.jpg' }).focus();
    await page.keyboard.press('Tab');
    await expect(tiles(page).nth(1).getByRole('button', { name: 'Compare IMG_0002.jpg' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(tiles(page).nth(1).getByRole('button', { name: 'Heart IMG_0002.jpg' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(tiles(page).nth(1).getByTestId('pick')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(tiles(page).nth(2).getByRole('button', { name: 'Open IMG_0003.jpg' })).toBeFocused();
    await expect(tiles(page).nth(1).getByTestId('heart')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /Hearts 1/ })).toBeVisible();

    await tiles(page).nth(0).getByTestId('pick').click();
    await expect(page.getByTestId('pick-count')).toHaveText('Picks 1 / 2');
    await tiles(page).nth(1).getByTestId('pick').click();
    await expect(page.getByTestId('pick-count')).toHaveText('Picks 2 / 2');
    // At the cap the third says why, and pressing it says so again rather than picking.
    const third = tiles(page).nth(2).getByTestId('pick');
    await expect(third).toHaveAttribute('aria-disabled', 'true');
    await expect(third).toHaveAccessibleDescription('You have picked 2 of 2 for “Pick 2 for print”. Remove one to pick another.');
    // aria-disabled keeps it focusable and pressable (a real click), which Playwright's actionability check counts as disabled.
    await third.click({ force: true });
    await expect(page.getByText('You have picked 2 of 2 for “Pick 2 for print”. Remove one to pick another.').first()).toBeVisible();
    await expect(page.getByTestId('pick-count')).toHaveText('Picks 2 / 2');

    // The full-screen view: keys for heart, stars and pick, the file name in its corner.
    await tiles(page).nth(2).getByRole('button', { name: 'Open IMG_0003.jpg' }).click();
    const box = page.getByTestId('lightbox');
    await expect(box).toBeVisible();
    await expect(page.getByTestId('lightbox-caption')).toContainText('IMG_0003.jpg');
    await page.keyboard.press('f');
    await expect(box.getByRole('button', { name: 'Heart', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press('4');
    await expect(box.getByRole('button', { name: '4 stars' })).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press('p');
    await expect(page.getByText('You have picked 2 of 2').first()).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('lightbox-caption')).toContainText('IMG_0004.jpg');
    await page.keyboard.press('Escape');
    await expect(box).toBeHidden();

    // Submit locks the list.
    await page.getByTestId('pick-bar').getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('dialog', { name: 'Send “Pick 2 for print”?' }).getByRole('button', { name: 'Send to the studio' }).click();
    await expect(page.getByTestId('submitted')).toBeVisible();
    await expect(tiles(page).nth(0).getByTestId('pick')).toHaveAttribute('aria-disabled', 'true');
    const saved = await (await page.request.get(`/api/client/galleries/${g.id}`)).json();
    expect(saved.images.filter((i: { heart: boolean }) => i.heart).map((i: { name: string }) => i.name)).toEqual(['IMG_0001.jpg', 'IMG_0003.jpg']);
    expect(saved.lists[0]).toMatchObject({ count: 2, submittedAt: expect.any(String) });

    // Staff see it submitted and reopen it with a note.
    await staff.goto(`/admin/galleries/${g.id}?tab=selections`);
    await islandsReady(staff);
    const row = staff.getByTestId('selection-row');
    await expect(row).toContainText('Couple');
    await expect(row).toContainText('2 / 2');
    await expect(row).toContainText('Submitted');
    await row.getByRole('button', { name: 'Reopen' }).click();
    const dialog = staff.getByRole('dialog', { name: 'Reopen “Pick 2 for print”' });
    await dialog.getByLabel('Note').fill('Please swap one for a close-up.');
    await dialog.getByRole('button', { name: 'Reopen' }).click();
    await expect(row).toContainText('Reopened');

    await page.reload();
    await islandsReady(page);
    await expect(page.getByRole('note')).toContainText('The studio reopened “Pick 2 for print”: Please swap one for a close-up.');
    await expect(page.getByTestId('pick-bar').getByRole('button', { name: 'Submit' })).toBeEnabled();
  } finally {
    await page.context().close();
    await staff.context().close();
  }
});

test('a full list gives a pick back (the tile, P, Picked in the viewer) and takes another; after a reopen a swap works', async ({ browser, server }) => {
  test.setTimeout(180_000);
  const staff = await staffPage(browser, server);
  const login = await createClientWithPortalLogin(server, 'Swap Co');
  const g = await makeGallery(staff.request, server, 'Swap wedding');
  const origin = { headers: { Origin: server.url } };
  const list = await (await staff.request.post(`/api/galleries/${g.id}/lists`, { ...origin, data: { name: 'Pick 2', minCount: 1, maxCount: 2 } })).json();
  await staff.request.put(`/api/galleries/${g.id}/clients`, { ...origin, data: { clientIds: [login.clientId] } });
  const page = await clientPage(browser, server, login);
  const picked = async () => {
    const view = await (await page.request.get(`/api/client/galleries/${g.id}`)).json();
    return view.images.filter((i: { picks: number[] }) => i.picks.includes(list.id)).map((i: { name: string }) => i.name);
  };
  try {
    const view = await (await page.request.get(`/api/client/galleries/${g.id}`)).json();
    for (const img of view.images.slice(0, 2)) {
      expect((await page.request.put(`/api/client/galleries/${g.id}/lists/${list.id}/picks/${img.id}`, origin)).status()).toBe(200);
    }
    await page.goto(`/client/galleries/${g.id}`);
    await islandsReady(page);
    const count = page.getByTestId('pick-count');
    await expect(count).toHaveText('Picks 2 / 2');
    const cap = 'You have picked 2 of 2 for “Pick 2”. Remove one to pick another.';

    // The tile's pick button takes a pick out of the full list, and another goes in.
    await tiles(page).nth(0).getByTestId('pick').click();
    await expect(count).toHaveText('Picks 1 / 2');
    await tiles(page).nth(2).getByTestId('pick').click();
    await expect(count).toHaveText('Picks 2 / 2');
    await expect.poll(picked).toEqual(['IMG_0002.jpg', 'IMG_0003.jpg']);

    // In the viewer, P and the "Picked" button take it out too.
    await tiles(page).nth(2).getByRole('button', { name: 'Open IMG_0003.jpg' }).click();
    const box = page.getByTestId('lightbox');
    await expect(box).toBeVisible();
    await page.keyboard.press('p');
    await expect(count).toHaveText('Picks 1 / 2');
    await page.keyboard.press('p');
    await expect(count).toHaveText('Picks 2 / 2');
    const pickButton = box.getByRole('button', { name: 'Pick for Pick 2' });
    await expect(pickButton).toHaveAttribute('aria-pressed', 'true');
    await pickButton.click();
    await expect(count).toHaveText('Picks 1 / 2');
    await expect(pickButton).toHaveAttribute('aria-pressed', 'false');
    await pickButton.click();
    await expect(count).toHaveText('Picks 2 / 2');
    await page.keyboard.press('Escape');
    await expect(box).toBeHidden();
    // Not one refusal was toasted on the way.
    await expect(page.getByTestId('toast').filter({ hasText: cap })).toHaveCount(0);

    // Sent, then reopened by the studio asking for a swap: one pick goes out and another in.
    expect((await page.request.post(`/api/client/galleries/${g.id}/lists/${list.id}/submit`, origin)).status()).toBe(200);
    await page.reload();
    await islandsReady(page);
    await expect(page.getByTestId('submitted')).toBeVisible();
    const [selection] = await (await staff.request.get(`/api/galleries/${g.id}/selections`)).json();
    expect((await staff.request.post(`/api/galleries/${g.id}/selections/${selection.id}/reopen`, { ...origin, data: { note: 'Swap one for a close-up, please.' } })).status()).toBe(200);
    await page.reload();
    await islandsReady(page);
    await expect(page.getByRole('note')).toContainText('The studio reopened “Pick 2”: Swap one for a close-up, please.');
    await tiles(page).nth(1).getByTestId('pick').click();
    await expect(count).toHaveText('Picks 1 / 2');
    await tiles(page).nth(3).getByTestId('pick').click();
    await expect(count).toHaveText('Picks 2 / 2');
    await expect.poll(picked).toEqual(['IMG_0003.jpg', 'IMG_0004.jpg']);
  } finally {
    await page.context().close();
    await staff.context().close();
  }
});

test('a shoot uploaded into a gallery through the tray joins it image by image, in capture order, with its EXIF', async ({ browser, server }) => {
  test.setTimeout(180_000);
  const staff = await staffPage(browser, server);
  const origin = { headers: { Origin: server.url } };
  const g = await (await staff.request.post('/api/galleries', { ...origin, data: { title: 'Studio day', mediaIds: [] } })).json();
  // Twelve frames named against their capture order, so "capture time" and "file name" differ.
  const COUNT = 12;
  const files = await Promise.all(
    Array.from({ length: COUNT }, async (_, i) => {
      const name = `DSC_${String(900 - i * 7).padStart(4, '0')}.jpg`;
      return { name, mimeType: 'image/jpeg', buffer: await shotJpeg({ name, taken: `2026:07:01 10:${String(10 + i).padStart(2, '0')}:00`, width: 1200, height: 800, colour: i % 2 ? '#1e3a8a' : '#7c2d12' }) };
    }),
  );
  try {
    await staff.goto(`/admin/galleries/${g.id}`);
    await islandsReady(staff);
    await staff.getByTestId('gallery-upload-input').setInputFiles(files);
    await expect(staff.getByText(`Uploading ${COUNT} images`)).toBeVisible();
    const tray = staff.getByTestId('upload-tray');
    await expect(tray).toContainText(`${COUNT} uploads finished`, { timeout: 120_000 });
    // Every file is in the gallery, its sizes made by the queue, ordered by capture time.
    await expect.poll(async () => (await (await staff.request.get(`/api/galleries/${g.id}`)).json()).images.filter((i: { ready: boolean }) => i.ready).length, { timeout: 90_000 }).toBe(COUNT);
    const view = await (await staff.request.get(`/api/galleries/${g.id}`)).json();
    expect(view.images.map((i: { filename: string }) => i.filename)).toEqual(files.map((f) => f.name));
    expect(view.images.every((i: { capturedAt: string | null; camera: string | null; lens: string | null }) => i.capturedAt && i.camera === 'Canon EOS R5' && i.lens === 'RF50mm F1.2 L USM')).toBe(true);
    await staff.reload();
    await islandsReady(staff);
    await expect(staff.getByRole('checkbox', { name: /^Select DSC_/ })).toHaveCount(COUNT);
  } finally {
    await staff.context().close();
  }
});

test('a gallery of more photos than its page carries: the page holds the first 100, the rest load, all can be reached; a fling past them loads pictures once it settles', async ({ browser, server }) => {
  test.setTimeout(240_000);
  const staff = await staffPage(browser, server);
  const login = await createClientWithPortalLogin(server, 'Big shoot');
  const origin = { headers: { Origin: server.url } };
  const COUNT = 104;
  const tiny = await sharp({ create: { width: 48, height: 32, channels: 3, background: '#334155' } }).jpeg().toBuffer();
  const ids: number[] = [];
  for (let i = 0; i < COUNT; i++) {
    const name = `FRAME_${String(i + 1).padStart(3, '0')}.jpg`;
    const res = await staff.request.post('/api/media', { ...origin, multipart: { title: name.replace('.jpg', ''), file: { name, mimeType: 'image/jpeg', buffer: tiny } } });
    expect(res.status()).toBe(201);
    ids.push((await res.json()).id);
  }
  const g = await (await staff.request.post('/api/galleries', { ...origin, data: { title: 'Long day', mediaIds: ids } })).json();
  expect((await staff.request.put(`/api/galleries/${g.id}/clients`, { ...origin, data: { clientIds: [login.clientId] } })).status()).toBe(200);
  const view = await (await staff.request.get(`/api/galleries/${g.id}`)).json();
  const last = view.images.at(-1).id as number;
  const page = await clientPage(browser, server, login);
  try {
    // The HTML carries 100 images (each once; "picks" is one of an image's fields, quoted in the
    // island's props as &quot; or, inside its JSON string, \&quot;), and the cover.
    const html = await (await page.request.get(`/client/galleries/${g.id}`)).text();
    const carried = html.match(/\\?&quot;picks\\?&quot;/g)?.length ?? 0;
    expect(carried).toBeGreaterThanOrEqual(100);
    expect(carried).toBeLessThanOrEqual(101);
    await page.goto(`/client/galleries/${g.id}`);
    await expect(page.getByTestId('gallery-hero')).toContainText(`${COUNT} photos`);
    // The last image is not in the page: it is there once the island has fetched the rest.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(async () => {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect(page.locator(`[data-testid="still-tile"][data-image="${last}"]`)).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 30_000 });

    // Tiles mounted while the page is flung past (wheel steps of 1,200 px a frame) wait with
    // their pictures, which load once the page stops; a reader's scroll (40 px a frame) mounts
    // tiles with their pictures at once.
    const onScreenWithoutPicture = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('[data-testid="still-tile"]')].filter((t) => {
          const r = t.getBoundingClientRect();
          return r.bottom > 0 && r.top < innerHeight && !t.querySelector('img');
        }).length,
      );
    const watchMounts = () =>
      page.evaluate(() => {
        const w = window as unknown as { __mounted: boolean[]; __watch?: MutationObserver };
        w.__watch?.disconnect();
        w.__mounted = [];
        w.__watch = new MutationObserver((records) => {
          for (const r of records)
            for (const n of r.addedNodes)
              if (n instanceof Element) for (const t of n.querySelectorAll('[data-testid="still-tile"]')) w.__mounted.push(!!t.querySelector('img'));
        });
        w.__watch.observe(document.querySelector('[data-testid="gallery-grid"]')!, { childList: true, subtree: true });
      });
    const mounted = () => page.evaluate(() => (window as unknown as { __mounted: boolean[] }).__mounted);
    const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(onScreenWithoutPicture).toBe(0);
    await watchMounts();
    await page.mouse.move(640, 400);
    while (await page.evaluate(() => window.scrollY + innerHeight < document.documentElement.scrollHeight - 2)) {
      await page.mouse.wheel(0, 1200);
      await frame();
    }
    expect((await mounted()).filter((withPicture) => !withPicture).length).toBeGreaterThan(0);
    await expect.poll(onScreenWithoutPicture).toBe(0);
    await watchMounts();
    for (let i = 0; i < 40; i++) {
      await page.mouse.wheel(0, -40);
      await frame();
    }
    const slow = await mounted();
    expect(slow.length).toBeGreaterThan(0);
    expect(slow.every((withPicture) => withPicture)).toBe(true);
  } finally {
    await page.context().close();
    await staff.context().close();
  }
});

test('a guest on a link with a PIN downloads a web-size image only after the PIN', async ({ browser, server }) => {
  test.setTimeout(180_000);
  const staff = await staffPage(browser, server);
  const g = await makeGallery(staff.request, server, 'Headshots', { downloadTier: 'web2048', downloadPin: '2468' });
  const made = await (await staff.request.post(`/api/galleries/${g.id}/links`, { headers: { Origin: server.url }, data: { name: 'Team headshots' } })).json();
  const ctx = await browser.newContext({ baseURL: server.url, acceptDownloads: true });
  await storeCookieChoice(ctx);
  const page = await ctx.newPage();
  const downloads = async () => Number((await server.sql.execute({ sql: 'SELECT count(*) AS n FROM gallery_downloads WHERE gallery_id = ?', args: [g.id] })).rows[0]!.n);
  try {
    await page.goto(new URL(made.url).pathname);
    await islandsReady(page);
    await tiles(page).nth(1).getByRole('button', { name: /^Open / }).click();
    await page.getByRole('button', { name: 'Download this image' }).click();
    await page.getByRole('menuitem', { name: 'Web size (2,048 px)' }).click();
    const pin = page.getByRole('dialog', { name: 'Download PIN' });
    await expect(pin).toBeVisible();
    expect(await downloads()).toBe(0);
    await pin.getByLabel('PIN').fill('1111');
    await pin.getByRole('button', { name: 'Unlock downloads' }).click();
    await expect(pin.getByText('That PIN is not right.')).toBeVisible();
    expect(await downloads()).toBe(0);
    await pin.getByLabel('PIN').fill('2468');
    const [download] = await Promise.all([page.waitForEvent('download'), pin.getByRole('button', { name: 'Unlock downloads' }).click()]);
    expect(download.suggestedFilename()).toBe('IMG_0002.jpg');
    const meta = await sharp(fs.readFileSync((await download.path())!)).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(1600); // a web-size copy, never larger than the original
    expect(meta.format).toBe('jpeg');
    expect(await downloads()).toBe(1);
    // The original is not on offer in a web-size gallery.
    await page.getByRole('button', { name: 'Download this image' }).click();
    await expect(page.getByRole('menuitem', { name: 'Original file' })).toHaveCount(0);
  } finally {
    await ctx.close();
    await staff.context().close();
  }
});

test('375 px: the gallery, the full-screen view and the staff editor fit without sideways scrolling; axe clean in both themes', async ({ browser, server }) => {
  test.setTimeout(180_000);
  const staff = await staffPage(browser, server);
  const login = await createClientWithPortalLogin(server, 'Narrow Client');
  const g = await makeGallery(staff.request, server, 'A rather long gallery title for the narrow screen test', { expiresOn: '2030-06-30' });
  const origin = { headers: { Origin: server.url } };
  const set = await (await staff.request.post(`/api/galleries/${g.id}/sets`, { ...origin, data: { name: 'Portraits' } })).json();
  const detail = await (await staff.request.get(`/api/galleries/${g.id}`)).json();
  await staff.request.patch(`/api/galleries/${g.id}/images`, { ...origin, data: { imageIds: [detail.images[0].id], setId: set.id } });
  await staff.request.post(`/api/galleries/${g.id}/lists`, { ...origin, data: { name: 'Favourites for the album', maxCount: 30 } });
  await staff.request.put(`/api/galleries/${g.id}/clients`, { ...origin, data: { clientIds: [login.clientId] } });
  const page = await clientPage(browser, server, login, { width: 375, height: 812 });
  const sideways = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  try {
    await page.goto(`/client/galleries/${g.id}`);
    await islandsReady(page);
    await expect(tiles(page)).toHaveCount(5);
    expect(await sideways(page)).toBe(0);
    await expect(page.getByTestId('pick-bar')).toBeVisible();
    await page.getByRole('button', { name: 'Portraits' }).click();
    await expect(tiles(page)).toHaveCount(1);
    await page.getByRole('button', { name: 'All photos' }).click();
    await tiles(page).nth(0).getByTestId('pick').click();
    await expect(page.getByTestId('pick-count')).toHaveText('Picks 1 / 30');
    await tiles(page).nth(0).getByRole('button', { name: /^Open / }).click();
    await expect(page.getByTestId('lightbox')).toBeVisible();
    await page.getByRole('button', { name: 'Next image' }).click();
    expect(await sideways(page)).toBe(0);
    await page.getByRole('button', { name: /^Notes/ }).click();
    await expect(page.getByRole('complementary', { name: 'Notes on this image' })).toBeVisible();

    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => localStorage.setItem('studio-theme', t), theme);
      await page.goto(`/client/galleries/${g.id}`);
      await islandsReady(page);
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/);
      expect(await seriousViolations(page), `gallery, ${theme}`).toEqual([]);
      await tiles(page).nth(0).getByRole('button', { name: /^Open / }).click();
      expect(await seriousViolations(page), `full-screen view, ${theme}`).toEqual([]);
      await page.keyboard.press('Escape');

      await staff.evaluate((t) => localStorage.setItem('studio-theme', t), theme);
      await staff.setViewportSize({ width: 375, height: 812 });
      await staff.goto(`/admin/galleries/${g.id}`);
      await islandsReady(staff);
      await expect(staff.getByTestId('staff-tile')).toHaveCount(5);
      expect(await sideways(staff), `editor, ${theme}`).toBe(0);
      expect(await seriousViolations(staff), `editor, ${theme}`).toEqual([]);
      // A tile's checkbox (visually hidden, its label drawn) shows where the keyboard is, and a
      // selected one is filled, not only its check brighter.
      const box = staff.getByLabel(`Select ${detail.images[0].filename}`);
      const drawn = box.locator('xpath=..');
      const look = () => drawn.evaluate((el) => ({ ring: getComputedStyle(el).boxShadow, fill: getComputedStyle(el).backgroundColor }));
      const before = await look();
      await staff.keyboard.press('Shift');
      await box.focus();
      await expect.poll(async () => (await look()).ring, `focus ring, ${theme}`).not.toBe('none');
      await staff.keyboard.press('Space');
      await expect(box).toBeChecked();
      await expect.poll(async () => (await look()).fill, `selected fill, ${theme}`).not.toBe(before.fill);
      await staff.keyboard.press('Space');
      await expect(box).not.toBeChecked();
      await staff.getByRole('tab', { name: 'Settings' }).click();
      expect(await sideways(staff), `settings, ${theme}`).toBe(0);
      expect(await seriousViolations(staff), `settings, ${theme}`).toEqual([]);
    }
  } finally {
    await page.context().close();
    await staff.context().close();
  }
});
