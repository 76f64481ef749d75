// Featured and portfolio grids, the category filter and the media player dialog, against
// real rows and a real short video served by /media/<key>/<file> (000 §2, §5, §9).
import { test, expect, afterReactRender, blockAutoplay } from './fixtures.ts';
import { hydrated } from './public-helpers.ts';
import { insertMedia } from '../helpers/public-media.ts';

test.describe.configure({ mode: 'serial' });

test('empty library: featured and portfolio empty states', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('what-we-do')).toContainText('No featured work available at the moment.');
  await page.goto('/portfolio');
  await expect(page.getByRole('heading', { name: 'No media found' })).toBeVisible();
  await expect(page.getByText('Try selecting a different category or check back later.')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Filter by category' })).toHaveCount(0);
});

test('the filter appears only above 12 items; tags match the lowercased category', async ({ page, server }) => {
  const seed = [
    ...Array.from({ length: 5 }, (_, i) => ({ title: `Ad ${i + 1}`, tags: ['commercial'] })),
    ...Array.from({ length: 3 }, (_, i) => ({ title: `Doc ${i + 1}`, tags: ['documentary', 'uk'] })),
    { title: 'Band one', tags: ['music video'] },
    { title: 'Band two', tags: ['music video'] },
    { title: 'Untagged 1', tags: [] },
    { title: 'Untagged 2', tags: ['Music-Video'] },
  ];
  for (const m of seed) await insertMedia(server.sql, server.mediaDir, { ...m, type: 'image', portfolio: true });
  await page.goto('/portfolio');
  await expect(page.getByTestId('media-card')).toHaveCount(12);
  await expect(page.getByRole('navigation', { name: 'Filter by category' })).toHaveCount(0);

  await insertMedia(server.sql, server.mediaDir, { title: 'Untagged 3', type: 'image', portfolio: true });
  await page.goto('/portfolio');
  await hydrated(page);
  const filter = page.getByRole('navigation', { name: 'Filter by category' });
  await expect(filter.getByRole('link')).toHaveText(['All', 'Commercial', 'Documentary', 'Corporate', 'Music Video']);
  await expect(filter.getByRole('link', { name: 'All' })).toHaveAttribute('aria-current', 'page');
  const cards = page.getByTestId('media-card');
  await expect(cards).toHaveCount(13);

  // Each category is its own server-rendered, linkable page (issue 23).
  const cases: [string, string, number][] = [['Commercial', '?category=commercial', 5], ['Documentary', '?category=documentary', 3], ['Music Video', '?category=music-video', 2], ['All', '', 13]];
  for (const [category, query, count] of cases) {
    await filter.getByRole('link', { name: category }).click();
    // #gallery: the page opens at the filter, where the visitor was (issue 32).
    await expect(page).toHaveURL(new RegExp(`/portfolio${query.replace('?', '\\?')}#gallery$`));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await expect(filter.getByRole('link', { name: category })).toHaveAttribute('aria-current', 'page');
    await expect(cards).toHaveCount(count);
  }
  await filter.getByRole('link', { name: 'Music Video' }).click();
  await expect(cards).toHaveText([/Band two/, /Band one/]);
  await filter.getByRole('link', { name: 'Corporate' }).click();
  await expect(cards).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'No media found' })).toBeVisible();
});

test('featured image opens in the dialog; Escape closes and focus returns to its card', async ({ page, server }) => {
  await insertMedia(server.sql, server.mediaDir, { title: 'Still life', type: 'image', featured: true });
  await page.goto('/');
  await hydrated(page);
  const card = page.getByRole('link', { name: 'View Still life' });
  await card.click();
  const dialog = page.getByRole('dialog', { name: 'Still life' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('img', { name: 'Still life' })).toBeAttached();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(card).toBeFocused();
});

test('video player: autoplay, Space, arrows, seek, mute, volume, auto-hide, reset on close', async ({ page, server }) => {
  const { url } = await insertMedia(server.sql, server.mediaDir, { title: 'Gala reel', type: 'video', featured: true, portfolio: true, withFile: true, seconds: 30 });
  expect((await page.request.get(url)).status()).toBe(200);
  // The page's timers on Playwright's clock (real time until paused), so the controls' 3 s can
  // be measured exactly, however slow the machine.
  await page.clock.install();
  await page.goto('/');
  await hydrated(page);
  const card = page.getByRole('link', { name: 'Play Gala reel' });
  await card.click();
  const dialog = page.getByTestId('media-player');
  await expect(dialog).toBeVisible();
  const video = dialog.getByTestId('player-video');
  const state = () => video.evaluate((v: HTMLVideoElement) => ({ paused: v.paused, t: v.currentTime, muted: v.muted, volume: v.volume, controls: v.controls }));

  // Autoplay on open.
  await expect.poll(async () => (await state()).paused).toBe(false);
  await expect(dialog.getByRole('button', { name: 'Pause' })).toBeVisible();
  expect((await state()).controls).toBe(false);

  // Constants of the sliders.
  await expect(dialog.getByRole('slider', { name: 'Seek' })).toHaveAttribute('step', '0.1');
  await expect(dialog.getByRole('slider', { name: 'Volume' })).toHaveAttribute('step', '0.01');

  // Space toggles, arrows skip 10 seconds.
  await page.keyboard.press(' ');
  await expect.poll(async () => (await state()).paused).toBe(true);
  await page.keyboard.press(' ');
  await expect.poll(async () => (await state()).paused).toBe(false);
  await page.keyboard.press(' ');
  const t0 = (await state()).t;
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await state()).t).toBeCloseTo(t0 + 10, 0);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => (await state()).t).toBeCloseTo(t0, 0);
  await dialog.getByRole('button', { name: 'Forward 10 seconds' }).click();
  await expect.poll(async () => (await state()).t).toBeCloseTo(t0 + 10, 0);
  await dialog.getByRole('button', { name: 'Back 10 seconds' }).click();
  await expect.poll(async () => (await state()).t).toBeCloseTo(t0, 0);

  // Seek slider: Home/End jump, each arrow press moves one step of 0.1 s (arrows on a
  // slider move the slider, they do not skip).
  const seek = dialog.getByRole('slider', { name: 'Seek' });
  await seek.focus();
  await page.keyboard.press('End');
  await expect.poll(async () => (await state()).t).toBeGreaterThan(29);
  await page.keyboard.press('Home');
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await state()).t).toBeCloseTo(0.5, 1);

  // Mute and volume (step 0.01; volume 0 means muted).
  await dialog.getByRole('button', { name: 'Mute' }).click();
  await expect.poll(async () => (await state()).muted).toBe(true);
  await dialog.getByRole('button', { name: 'Unmute' }).click();
  await expect.poll(async () => (await state()).muted).toBe(false);
  const volume = dialog.getByRole('slider', { name: 'Volume' });
  // The slider follows the button at once, not when the video's volumechange event arrives.
  expect(await volume.inputValue()).toBe('1');
  await volume.focus();
  await page.keyboard.press('Home');
  await expect.poll(async () => (await state()).muted).toBe(true);
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await state()).volume).toBeCloseTo(0.03, 3);
  expect((await state()).muted).toBe(false);
  // Unmuting after the slider went to 0 brings the sound back rather than staying silent.
  await page.keyboard.press('Home');
  await expect.poll(async () => (await state()).muted).toBe(true);
  await dialog.getByRole('button', { name: 'Unmute' }).click();
  await expect.poll(async () => await state()).toMatchObject({ muted: false, volume: 1 });
  expect(await volume.inputValue()).toBe('1');
  await volume.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => (await state()).volume).toBeCloseTo(0.97, 3);

  // Clicking the video toggles play; controls hide 3 s after the last mouse movement.
  await video.click();
  await expect.poll(async () => (await state()).paused).toBe(false);
  const controls = dialog.getByTestId('player-controls');
  // The clock stands from here (a little ahead of the page's time); the video plays on its own.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  await page.mouse.move(300, 300);
  await page.mouse.move(310, 310);
  await expect(controls).toHaveAttribute('data-visible', 'true');
  // 1 ms short of 3 s after the last movement: still shown (the render is flushed, not hoped for).
  await page.clock.runFor(2999);
  await afterReactRender(page);
  await expect(controls).toHaveAttribute('data-visible', 'true');
  await page.clock.runFor(1);
  await expect(controls).toHaveAttribute('data-visible', 'false');
  await page.mouse.move(320, 320);
  await expect(controls).toHaveAttribute('data-visible', 'true');
  await page.clock.resume();

  // Escape closes, focus returns to the card, and the next open starts from the beginning.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(card).toBeFocused();
  await card.click();
  await expect(page.getByTestId('player-video')).toBeVisible();
  expect(await page.getByTestId('player-video').evaluate((v: HTMLVideoElement) => v.currentTime)).toBeLessThan(2);
  await page.getByRole('button', { name: 'Close player' }).click();
  await expect(page.getByTestId('media-player')).toHaveCount(0);
});

test('blocked autoplay is only logged and the player shows the paused state', async ({ page }) => {
  const autoplay = await blockAutoplay(page);
  await page.goto('/');
  await hydrated(page);
  await page.getByRole('link', { name: 'Play Gala reel' }).click();
  const dialog = page.getByTestId('media-player');
  await expect(dialog.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  await autoplay.expectOnlyLogged();
});

test('player controls show tooltips; moving along the row skips the 700 ms wait', async ({ page }) => {
  await page.goto('/');
  await hydrated(page);
  await page.getByRole('link', { name: 'Play Gala reel' }).click();
  const dialog = page.getByTestId('media-player');
  // Paused, the controls stay up without mouse movement.
  await dialog.getByRole('button', { name: 'Pause' }).click();
  const tip = dialog.locator('[role="tooltip"]');
  await dialog.getByRole('button', { name: 'Back 10 seconds' }).hover();
  await expect(tip).toHaveText('Back 10 seconds');
  // Timed in the page, so the figure is the app's, not Playwright's round trips.
  await page.evaluate(() => {
    const w = window as unknown as { __enter?: number; __shown?: number };
    document.querySelector('[aria-label="Forward 10 seconds"]')!.addEventListener('pointerenter', () => (w.__enter = performance.now()));
    new MutationObserver(() => {
      if (document.querySelector('[role="tooltip"]')?.textContent === 'Forward 10 seconds') w.__shown ??= performance.now();
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await dialog.getByRole('button', { name: 'Forward 10 seconds' }).hover();
  await expect(tip).toHaveText('Forward 10 seconds');
  const waited = await page.evaluate(() => {
    const w = window as unknown as { __enter: number; __shown: number };
    return w.__shown - w.__enter;
  });
  expect(waited).toBeLessThan(300);
});

test('portfolio hover preview starts 2 seconds in', async ({ page }) => {
  await page.goto('/portfolio');
  await hydrated(page);
  const card = page.getByRole('link', { name: 'Play Gala reel' });
  await card.scrollIntoViewIfNeeded();
  await card.hover();
  const preview = card.getByTestId('hover-preview');
  await expect(preview).toBeAttached();
  await expect.poll(() => preview.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThanOrEqual(2);
  await page.mouse.move(0, 0);
  await expect(preview).toHaveCount(0);
});

test.describe('under 768 px', () => {
  test.use({ viewport: { width: 375, height: 740 } });
  test('the player is full-screen with the native controls', async ({ page }) => {
    await page.goto('/');
    await hydrated(page);
    await page.getByRole('link', { name: 'Play Gala reel' }).click();
    const dialog = page.getByTestId('media-player');
    await expect(dialog).toBeVisible();
    expect(await page.getByTestId('player-video').evaluate((v: HTMLVideoElement) => v.controls)).toBe(true);
    await expect(dialog.getByTestId('player-controls')).toHaveCount(0);
    const box = (await dialog.boundingBox())!;
    expect(box.width).toBe(375);
    expect(box.height).toBe(740);
  });
});

test.describe('section backgrounds', () => {
  test('hero image background with parallax, which stays off under reduced motion', async ({ page, server }) => {
    const img = await insertMedia(server.sql, server.mediaDir, { title: 'Hero still', type: 'image' });
    await server.sql.execute({ sql: `update website_settings set background_image_id = ? where section = 'hero'`, args: [img.id] });
    await server.sql.execute('update site_state set version = version + 1 where id = 1');
    const hero = page.getByTestId('hero');
    const layer = hero.locator('[data-parallax]');

    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.goto('/');
    await expect(hero).toHaveAttribute('data-has-background', 'true');
    await expect(hero).toHaveClass(/\bdark\b/);
    await expect(hero.locator('img')).toHaveAttribute('src', img.url);
    await expect(hero.locator('img')).toHaveAttribute('loading', 'eager');
    await page.mouse.wheel(0, 300);
    await expect.poll(() => layer.evaluate((el) => (el as HTMLElement).style.transform)).toMatch(/translate3d/);

    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    await page.mouse.wheel(0, 300);
    await page.waitForTimeout(300);
    expect(await layer.evaluate((el) => (el as HTMLElement).style.transform)).toBe('');
  });
});

test('a branding favicon that fails to load is replaced by the empty icon with a warning', async ({ page, server }) => {
  // A favicon row whose file is not on disk: /media/<key>/original.jpg answers 404.
  const fav = await insertMedia(server.sql, server.mediaDir, { title: 'Icon', type: 'image', featured: true });
  await server.sql.execute({ sql: 'update branding_settings set favicon_image_id = ? where id = 1', args: [fav.id] });
  await server.sql.execute('update site_state set version = version + 1 where id = 1');
  const warnings: string[] = [];
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  // A public page, and pages outside the public layout (the icon comes from BaseLayout).
  for (const path of ['/about', '/auth', '/client/login']) {
    warnings.length = 0;
    await page.goto(path);
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', 'data:,');
    await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveCount(0);
    await expect.poll(() => warnings.some((w) => w.startsWith('Favicon failed to load')), path).toBe(true);
  }
  await server.sql.execute('update branding_settings set favicon_image_id = null where id = 1');
  await server.sql.execute('update site_state set version = version + 1 where id = 1');
});
