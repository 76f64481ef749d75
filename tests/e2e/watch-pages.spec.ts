// Watch pages in Chromium (issue 21): a grid card is a real link that opens the film's own
// page in a new tab, and the page has no serious accessibility violation in either theme.
import { test, expect } from './fixtures.ts';
import { hydrated, seriousViolations } from './public-helpers.ts';
import { changeSite, insertMedia } from '../helpers/public-media.ts';

test.describe.configure({ mode: 'serial' });

test('a portfolio card opens its watch page in a new tab; the page links on to the next film and to Let\'s Create', async ({ page, context, server }) => {
  await insertMedia(server.sql, server.mediaDir, { title: 'Riverside Wedding', type: 'image', portfolio: true, tags: ['events'] });
  await insertMedia(server.sql, server.mediaDir, { title: 'Foundry Documentary', type: 'image', portfolio: true, tags: ['documentary'] });
  await page.goto('/portfolio');
  await hydrated(page);
  const card = page.getByRole('link', { name: 'View Riverside Wedding' });
  await expect(card).toHaveAttribute('href', '/portfolio/riverside-wedding');
  const [tab] = await Promise.all([context.waitForEvent('page'), card.click({ modifiers: ['ControlOrMeta'] })]);
  // A new tab opens on about:blank and then navigates: wait for the watch page itself.
  await expect(tab).toHaveURL(/\/portfolio\/riverside-wedding$/);
  await expect(tab.getByRole('heading', { level: 1 })).toHaveText('Riverside Wedding');
  await expect(tab.getByTestId('watch-image')).toBeVisible();
  // The grid page itself did not open a dialog or navigate.
  expect(new URL(page.url()).pathname).toBe('/portfolio');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Newest first: Riverside (older) has Foundry as its previous film.
  await tab.getByTestId('watch-prev').click();
  await expect(tab).toHaveURL(/\/portfolio\/foundry-documentary$/);
  await expect(tab.getByTestId('watch-cta')).toHaveAttribute('href', '/contact');
});

test('without JavaScript a card still leads to its watch page', async ({ browser, server }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: server.url });
  const page = await context.newPage();
  await page.goto('/portfolio');
  await page.getByRole('link', { name: 'View Riverside Wedding' }).click();
  await expect(page).toHaveURL(/\/portfolio\/riverside-wedding$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Riverside Wedding');
  await context.close();
});

test('a film plays on its watch page in the portfolio player: its length before play, quality menu, Space and arrows, a focus ring; without JavaScript the browser controls', async ({ page, browser, server }) => {
  const film = await insertMedia(server.sql, server.mediaDir, { title: 'Quarry Film', type: 'video', portfolio: true, withFile: true, seconds: 30 });
  await changeSite(server.sql, {
    sql: "UPDATE media SET processing_status = 'ready', duration_seconds = 30, renditions = ? WHERE id = ?",
    args: [JSON.stringify([{ label: '180p', variant: 'original.mp4', width: 320, height: 180 }]), film.id],
  });
  await page.goto('/portfolio/quarry-film');
  await page.locator('astro-island[component-url*="WatchPlayer"]:not([ssr])').waitFor({ state: 'attached' });
  const video = page.getByTestId('watch-video');
  const state = () => video.evaluate((v: HTMLVideoElement) => ({ paused: v.paused, t: v.currentTime, controls: v.controls, preload: v.preload }));
  // The page waits for the viewer, and shows how long the film is before it plays.
  expect(await state()).toMatchObject({ paused: true, controls: false, preload: 'metadata' });
  const controls = page.getByTestId('player-controls');
  await expect(controls).toContainText('0:30');
  await expect(controls.getByRole('combobox', { name: 'Quality' })).toBeVisible();
  // Keyboard: the player takes focus with a visible ring, Space plays, the arrows skip 10 s.
  const stage = page.getByRole('group', { name: /^Video: Quarry Film/ });
  await page.getByRole('link', { name: 'Portfolio', exact: true }).last().focus();
  await stage.focus();
  expect(await stage.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
  await video.evaluate((v: HTMLVideoElement) => (v.muted = true));
  await page.keyboard.press(' ');
  await expect.poll(async () => (await state()).paused).toBe(false);
  await page.keyboard.press(' ');
  await expect.poll(async () => (await state()).paused).toBe(true);
  const t0 = (await state()).t;
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await state()).t).toBeCloseTo(t0 + 10, 0);

  const noJs = await browser.newContext({ javaScriptEnabled: false, baseURL: server.url });
  const plain = await noJs.newPage();
  await plain.goto('/portfolio/quarry-film');
  expect(await plain.getByTestId('watch-video').getAttribute('controls')).not.toBeNull();
  await expect(plain.getByTestId('player-controls')).toHaveCount(0);
  await noJs.close();
});

for (const theme of ['dark', 'light'] as const) {
  test(`a watch page in ${theme}: no serious or critical axe violations, for a still and for a film in its player`, async ({ page }) => {
    await page.addInitScript((t) => localStorage.setItem('studio-theme', t), theme);
    for (const slug of ['foundry-documentary', 'quarry-film']) {
      await page.goto(`/portfolio/${slug}`);
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark).*$/);
      await hydrated(page);
      if (slug === 'quarry-film') await page.locator('astro-island[component-url*="WatchPlayer"]:not([ssr])').waitFor({ state: 'attached' });
      expect(await seriousViolations(page), slug).toEqual([]);
    }
  });
}
