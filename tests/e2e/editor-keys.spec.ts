// Editor keys and range notes in the review players (issue 30 "Editor keys", issue 29 "Range
// notes"): J K L shuttle, Space, Shift+arrows, the speed menu and the ? list in the admin
// dialog; none of them while typing a note; I and O make a range note in the portal and on the
// share page (stored endMs within a frame, a bar on the seek bar), the range loops, a range note
// in the list loops; a drag on the marker strip marks the same in and out points (mouse in the
// admin dialog, touch on the share page) while clicks on the strip mark nothing and the seek bar
// still seeks; axe clean in both themes with the keys list open.
import type { Browser, BrowserContextOptions, Locator, Page } from '@playwright/test';
import { test, expect, ADMIN, afterReactRender, storeCookieChoice } from './fixtures.ts';
import { islandsReady, signInAs } from './admin-helpers.ts';
import { seriousViolations } from './public-helpers.ts';
import { createClientWithPortalLogin } from '../helpers/portal-fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { FRAME, currentTime, pauseAt, signInClient, uploadClip } from './review-helpers.ts';
import { KEY_LIST } from '../../src/islands/review/keys.ts';

const state = (player: Locator) => player.evaluate((v: HTMLVideoElement) => ({ paused: v.paused, rate: v.playbackRate, t: v.currentTime }));
const mute = (player: Locator) => player.evaluate((v: HTMLVideoElement) => void (v.muted = true));

async function openAdmin(page: Page, title: string) {
  await page.goto('/admin/media');
  await islandsReady(page);
  await page.getByRole('button', { name: `Open ${title}` }).click();
  return page.getByRole('dialog', { name: title });
}

/**
 * Watches the playhead for up to 8 s (every animation frame) until it has passed `nearOut`
 * and then stands before `before` again: the loop turned. Returns the furthest time seen and
 * the time it came back to (-1 when it never did).
 */
function watchLoop(player: Locator, nearOut: number, before: number) {
  return player.evaluate(
    (v: HTMLVideoElement, [nearOut, before]) =>
      new Promise<{ max: number; back: number; playing: boolean }>((resolve) => {
        let max = 0;
        const t0 = performance.now();
        const tick = () => {
          const t = v.currentTime;
          max = Math.max(max, t);
          if (max >= nearOut && t < before) return resolve({ max, back: t, playing: !v.paused });
          if (performance.now() - t0 > 8000) return resolve({ max, back: -1, playing: !v.paused });
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    [nearOut, before] as const,
  );
}

/**
 * After K: a second of the page's clock runs (the backwards shuttle steps every frame on a timer,
 * so a step left running moves the playhead at once), React renders what it set off, and the
 * player is still paused where it stopped.
 */
async function expectStandsStill(page: Page, player: Locator, at: number) {
  await page.clock.runFor(1000);
  await afterReactRender(page);
  expect(await state(player)).toMatchObject({ paused: true, t: at });
}

/** The marker's width as a share of the strip's. */
async function markerShare(scope: Locator) {
  const strip = (await scope.getByTestId('note-markers').boundingBox())!;
  const m = (await scope.getByTestId('note-marker').first().boundingBox())!;
  return m.width / strip.width;
}

test('admin dialog: L, L again 2x, K pauses, J goes back, Shift+arrows a second, speed menu, ? lists every key; none fire while typing a note', async ({ page, server }) => {
  // The page's timers on Playwright's clock (real time unless moved): "K stops it" runs the
  // clock a second on, firing any timer the shuttle left behind, instead of sleeping.
  await page.clock.install();
  test.setTimeout(120_000);
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
  await uploadClip(page, server, 'Keys Cut');
  const dialog = await openAdmin(page, 'Keys Cut');
  const player = dialog.getByTestId('detail-video');
  const area = dialog.getByTestId('player-area');
  const speed = dialog.getByLabel('Speed');
  await pauseAt(player, 0);
  await mute(player);

  // L plays at 1x; again 2x, again 4x (the speed menu shows it); K pauses where it is.
  await area.focus();
  await page.keyboard.press('l');
  await expect.poll(() => state(player)).toMatchObject({ paused: false, rate: 1 });
  await page.keyboard.press('l');
  await expect.poll(async () => (await state(player)).rate).toBe(2);
  await expect(speed).toHaveValue('2');
  await page.keyboard.press('l');
  await expect.poll(async () => (await state(player)).rate).toBe(4);
  await expect(speed).toHaveValue('4');
  // At 4x the 6 s clip is over in 1.5 s, which the checks above can take on a loaded machine:
  // from its start again, still at 4x, K must stop it well before its end.
  await player.evaluate(async (v: HTMLVideoElement) => {
    v.currentTime = 0;
    if (v.paused) await v.play();
  });
  await page.keyboard.press('k');
  await expect.poll(async () => (await state(player)).paused).toBe(true);
  const stopped = await currentTime(player);
  expect(stopped).toBeLessThan(5.5);
  await expectStandsStill(page, player, stopped);

  // J goes backwards (paused, stepping back on a timer); J again is faster; K stops it.
  await pauseAt(player, 4);
  await area.focus();
  await page.keyboard.press('j');
  await expect(dialog.getByTestId('shuttle-state')).toHaveText('Playing backwards 1x');
  await expect.poll(() => currentTime(player)).toBeLessThan(3.7);
  expect((await state(player)).paused).toBe(true);
  await page.keyboard.press('j');
  await expect(dialog.getByTestId('shuttle-state')).toHaveText('Playing backwards 2x');
  await page.keyboard.press('k');
  await expect(dialog.getByTestId('shuttle-state')).toHaveText('');
  const back = await currentTime(player);
  expect(back).toBeLessThan(3.7);
  await expectStandsStill(page, player, back);

  // The speed menu: 0.5x to 2x.
  await expect(speed.locator('option')).toHaveText(['0.5x', '0.75x', '1x', '1.25x', '1.5x', '2x', '4x']);
  await speed.selectOption('0.5');
  await expect.poll(async () => (await state(player)).rate).toBe(0.5);
  await speed.selectOption('1.5');
  await expect.poll(async () => (await state(player)).rate).toBe(1.5);
  await expect(speed.locator('option')).toHaveCount(6);

  // Shift+→ and Shift+← move one second; the time field follows (paused).
  await pauseAt(player, 2);
  await area.focus();
  await page.keyboard.press('Shift+ArrowRight');
  await expect.poll(() => currentTime(player)).toBeCloseTo(3, 3);
  await expect(dialog.getByLabel('Time (seconds)')).toHaveValue('3');
  await page.keyboard.press('Shift+ArrowLeft');
  await page.keyboard.press('Shift+ArrowLeft');
  await expect.poll(() => currentTime(player)).toBeCloseTo(1, 3);

  await area.focus();
  // Space plays and pauses with focus on the player area.
  await page.keyboard.press(' ');
  await expect.poll(async () => (await state(player)).paused).toBe(false);
  await page.keyboard.press(' ');
  await expect.poll(async () => (await state(player)).paused).toBe(true);

  // ? lists every key; Escape closes the list and leaves the media dialog open.
  await area.focus();
  await page.keyboard.press('?');
  const keys = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(keys).toBeVisible();
  await expect(keys.getByRole('row')).toHaveCount(KEY_LIST.length + 1);
  for (const k of ['J', 'K', 'L', 'Space', ',', '.', 'Shift', 'I', 'O', '?']) await expect(keys.locator('kbd', { hasText: k }).first()).toBeVisible();
  await expect(keys.getByRole('row', { name: /Drag on the marker strip/ })).toContainText('Mark in where the drag starts and out where it ends');
  await page.keyboard.press('Escape');
  await expect(keys).toBeHidden();
  await expect(dialog).toBeVisible();
  // The button opens it too.
  await dialog.getByRole('button', { name: /Keyboard shortcuts/ }).click();
  await expect(keys).toBeVisible();
  await keys.getByRole('button', { name: 'Close' }).click();
  await expect(keys).toBeHidden();
  await expect(dialog).toBeVisible();

  // Typing a note: every key is text, none reaches the player.
  await pauseAt(player, 1);
  const note = dialog.getByTestId('staff-note-form').getByRole('textbox', { name: 'Note' });
  await note.click();
  await page.keyboard.type('l k j i o , . ? L J K');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press(' ');
  await expect(note).toHaveValue('l k j i o , . ? L J K ');
  expect(await state(player)).toEqual({ paused: true, rate: 1.5, t: 1 });
  await expect(keys).toBeHidden();
  await expect(dialog.getByTestId('shuttle-state')).toHaveText('');
  await expect(dialog.getByTestId('range-text')).toContainText('Out not set');
});

test('portal: I at 1 s and O at 2 s make a range note (endMs within a frame, a bar); out before in is refused; the range and a listed range note loop', async ({ page, server }) => {
  test.setTimeout(120_000);
  const login = await createClientWithPortalLogin(server, 'Range Co');
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
  const mediaId = await uploadClip(page, server, 'Range Cut', login.clientId);
  await page.context().clearCookies();
  await signInClient(page, login);
  await page.getByRole('button', { name: 'Open Range Cut' }).click();
  const dialog = page.getByRole('dialog', { name: 'Range Cut' });
  await dialog.getByRole('tab', { name: 'Timeline' }).click();
  const player = dialog.getByTestId('portal-video');
  const area = dialog.getByTestId('player-area');
  const ts = dialog.getByLabel('Timestamp (seconds)');
  const range = dialog.getByTestId('range-text');
  await mute(player);

  // I pins the start: seeking on to the out point does not move it.
  await pauseAt(player, 1);
  await area.focus();
  await page.keyboard.press('i');
  await pauseAt(player, 2);
  await expect(ts).toHaveValue('1');
  await area.focus();
  await page.keyboard.press('o');
  await expect(range).toHaveText('In 00:01.00 – Out 00:02.00');

  // An out point before the in point: said, and nothing is sent.
  await pauseAt(player, 0.5);
  await area.focus();
  await page.keyboard.press('o');
  await expect(dialog.getByTestId('range-error')).toContainText('Out must be after In');
  await dialog.getByRole('textbox', { name: 'Note' }).fill('Too early');
  await dialog.getByRole('button', { name: 'Add Note' }).click();
  await expect(dialog.getByRole('switch', { name: /Loop range/ })).toBeDisabled();
  expect((await server.sql.execute({ sql: 'SELECT count(*) AS n FROM timeline_notes WHERE media_id = ?', args: [mediaId] })).rows[0]!.n).toBe(0);
  await pauseAt(player, 2);
  await dialog.getByRole('button', { name: /Mark out/ }).click();
  await expect(dialog.getByTestId('range-error')).toHaveCount(0);
  await expect(range).toHaveText('In 00:01.00 – Out 00:02.00');

  // Loop range: playing from 1.2 s turns back to the in point after the out point.
  await dialog.getByRole('switch', { name: /Loop range/ }).check();
  await expect(dialog.getByTestId('loop-state')).toContainText('Looping 00:01.00–00:02.00');
  await pauseAt(player, 1.2);
  await area.focus();
  await page.keyboard.press('l');
  const looped = await watchLoop(player, 1.9, 1.5);
  expect(looped.back).toBeGreaterThanOrEqual(1 - FRAME);
  expect(looped.max).toBeLessThan(2.25);
  expect(looped.playing).toBe(true);
  await page.keyboard.press('k');

  // Sent as timestampMs / endMs; the form lets go of the range afterwards.
  await dialog.getByRole('textbox', { name: 'Note' }).fill('Hold this shot longer');
  await dialog.getByRole('button', { name: 'Add Note' }).click();
  await expect(dialog.getByTestId('timeline-list')).toContainText('Hold this shot longer');
  const row = (await server.sql.execute({ sql: 'SELECT timestamp_ms, end_ms FROM timeline_notes WHERE media_id = ?', args: [mediaId] })).rows[0]!;
  expect(Math.abs(Number(row.timestamp_ms) - 1000)).toBeLessThan(1000 * FRAME);
  expect(Math.abs(Number(row.end_ms) - 2000)).toBeLessThan(1000 * FRAME);
  await expect(range).toContainText('Out not set');
  await expect(dialog.getByTestId('loop-state')).toHaveCount(0);

  // Its marker is a bar from 1 s to 2 s of the strip.
  const duration = await player.evaluate((v: HTMLVideoElement) => v.duration);
  await expect(dialog.getByTestId('note-marker')).toHaveCount(1);
  expect(Math.abs((await markerShare(dialog)) - 1 / duration)).toBeLessThan(0.02);

  // In the list: 00:01–00:02; a click seeks to its start; Loop plays it over and over.
  const item = dialog.getByTestId('timeline-list').getByRole('listitem').filter({ hasText: 'Hold this shot longer' });
  await expect(item).toContainText('00:01–00:02');
  await pauseAt(player, 4);
  await item.getByRole('button', { name: /Hold this shot longer/ }).click();
  await expect.poll(async () => Math.abs((await currentTime(player)) - 1)).toBeLessThan(FRAME);
  const loopButton = item.getByRole('button', { name: 'Loop 00:01.00 to 00:02.00' });
  await loopButton.click();
  await expect(loopButton).toHaveAttribute('aria-pressed', 'true');
  const again = await watchLoop(player, 1.9, 1.5);
  expect(again.back).toBeGreaterThanOrEqual(1 - FRAME);
  expect(again.max).toBeLessThan(2.25);
  await dialog.getByRole('button', { name: 'Stop loop' }).click();
  await expect(loopButton).toHaveAttribute('aria-pressed', 'false');
  await expect(dialog.getByTestId('loop-state')).toHaveCount(0);
});

/** The range field's "In mm:ss.ff – Out mm:ss.ff" as seconds (null for "not set"). */
async function shownRange(scope: Locator): Promise<{ from: number; to: number | null }> {
  const text = (await scope.getByTestId('range-text').textContent()) ?? '';
  const m = /In (\d+):(\d+)\.(\d+) – Out (?:(\d+):(\d+)\.(\d+)|not set)/.exec(text);
  if (!m) throw new Error(`range text: ${text}`);
  const at = (mm: string, ss: string, ff: string) => Number(mm) * 60 + Number(ss) + Number(ff) / 25;
  return { from: at(m[1]!, m[2]!, m[3]!), to: m[4] ? at(m[4], m[5]!, m[6]!) : null };
}

/** A point on the element at a share of its width, halfway down. */
async function pointAt(target: Locator, share: number) {
  const box = (await target.boundingBox())!;
  return { x: box.x + box.width * share, y: box.y + box.height / 2 };
}

test('a drag on the marker strip marks in and out like I and O (admin, mouse; share page, touch); a click on the strip marks nothing; the seek bar still seeks', async ({ page, server, browser }) => {
  test.setTimeout(120_000);
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
  const mediaId = await uploadClip(page, server, 'Drag Cut');
  const dialog = await openAdmin(page, 'Drag Cut');
  const player = dialog.getByTestId('detail-video');
  const strip = dialog.getByTestId('note-markers');
  const seek = dialog.getByTestId('review-seek');
  const time = dialog.getByLabel('Time (seconds)');
  const range = dialog.getByTestId('range-text');
  await pauseAt(player, 0.5);
  await mute(player);
  const duration = await player.evaluate((v: HTMLVideoElement) => v.duration);

  // No notes yet, and the strip is there to drag on, saying so to assistive technology.
  await expect(strip).toBeVisible();
  await expect(dialog.getByTestId('note-marker')).toHaveCount(0);
  await expect(strip).toHaveAccessibleDescription('Drag here to mark a range; I and O set in and out.');

  // A click, and a press that slips 3 px, are not ranges: nothing shown or marked, the
  // playhead stays.
  let p = await pointAt(strip, 0.5);
  await page.mouse.click(p.x, p.y);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(p.x + 3, p.y);
  await expect(strip).not.toHaveAttribute('data-dragging', 'true');
  await expect(dialog.getByTestId('drag-range')).toHaveCount(0);
  await page.mouse.up();
  await expect(range).toContainText('Out not set');
  await expect(dialog.getByRole('button', { name: 'Clear range' })).toHaveCount(0);
  expect(await currentTime(player)).toBeCloseTo(0.5, 3);
  await expect(time).toHaveValue('0.5');

  // A drag from 20 % to 60 %: the range shows while dragging, then In and Out are set there.
  p = await pointAt(strip, 0.2);
  const end = await pointAt(strip, 0.6);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(end.x, end.y, { steps: 8 });
  await expect(dialog.getByTestId('drag-range')).toBeVisible();
  const shown = (await dialog.getByTestId('drag-range').boundingBox())!;
  const box = (await strip.boundingBox())!;
  expect(Math.abs((shown.x - box.x) / box.width - 0.2)).toBeLessThan(0.01);
  expect(Math.abs(shown.width / box.width - 0.4)).toBeLessThan(0.01);
  await page.mouse.up();
  await expect(dialog.getByTestId('drag-range')).toHaveCount(0);
  await expect(range).not.toContainText('not set');
  const marked = await shownRange(dialog);
  expect(Math.abs(marked.from - 0.2 * duration)).toBeLessThanOrEqual(2 * FRAME);
  expect(Math.abs(marked.to! - 0.6 * duration)).toBeLessThanOrEqual(2 * FRAME);
  expect(Math.abs(Number(await time.inputValue()) - 0.2 * duration)).toBeLessThanOrEqual(2 * FRAME);
  // Paused on the in point, which stays where it is (pinned as after I).
  await expect.poll(async () => Math.abs((await currentTime(player)) - marked.from)).toBeLessThan(FRAME);
  expect((await state(player)).paused).toBe(true);
  // The loop follows the dragged range as it does the keys'.
  await dialog.getByRole('switch', { name: /Loop range/ }).check();
  await expect(dialog.getByTestId('loop-state')).toContainText(/Looping 00:01\.\d\d–00:03\.\d\d/);
  await dialog.getByRole('switch', { name: /Loop range/ }).uncheck();

  // Saved as timestampMs / endMs; its marker is a bar from 20 % to 60 % of the strip.
  const form = dialog.getByTestId('staff-note-form');
  await form.getByRole('textbox', { name: 'Note' }).fill('Dragged range');
  await form.getByRole('button', { name: 'Add note' }).click();
  await expect(dialog.getByTestId('timeline-notes')).toContainText('Dragged range');
  const row = (await server.sql.execute({ sql: 'SELECT timestamp_ms, end_ms FROM timeline_notes WHERE media_id = ?', args: [mediaId] })).rows[0]!;
  expect(Math.abs(Number(row.timestamp_ms) - 200 * duration)).toBeLessThanOrEqual(2000 * FRAME);
  expect(Math.abs(Number(row.end_ms) - 600 * duration)).toBeLessThanOrEqual(2000 * FRAME);
  const marker = dialog.getByTestId('note-marker');
  await expect(marker).toHaveCount(1);
  await expect(marker).toHaveAttribute('data-ms', String(row.timestamp_ms));
  const m = (await marker.boundingBox())!;
  expect(Math.abs((m.x - box.x) / box.width - Number(row.timestamp_ms) / 1000 / duration)).toBeLessThan(0.01);
  expect(Math.abs(m.width / box.width - (Number(row.end_ms) - Number(row.timestamp_ms)) / 1000 / duration)).toBeLessThan(0.01);
  await expect(range).toContainText('Out not set');

  // A click on the marker still seeks to the note; one on the strip beside it marks nothing.
  await pauseAt(player, 5);
  await marker.click();
  await expect.poll(async () => Math.abs((await currentTime(player)) - Number(row.timestamp_ms) / 1000)).toBeLessThan(FRAME);
  p = await pointAt(strip, 0.85);
  await page.mouse.click(p.x, p.y);
  await expect(range).toContainText('Out not set');

  // The seek bar: a click seeks, a drag along it seeks, and neither marks a range.
  await pauseAt(player, 0.5);
  p = await pointAt(seek, 0.75);
  await page.mouse.click(p.x, p.y);
  await expect.poll(async () => Math.abs((await currentTime(player)) - 0.75 * duration)).toBeLessThan(0.3);
  p = await pointAt(seek, 0.3);
  const to = await pointAt(seek, 0.5);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 6 });
  await page.mouse.up();
  await expect.poll(async () => Math.abs((await currentTime(player)) - 0.5 * duration)).toBeLessThan(0.3);
  await expect(range).toContainText('Out not set');
  await expect(dialog.getByRole('button', { name: 'Clear range' })).toHaveCount(0);

  // The share page with a touch screen: a finger dragged along the strip marks the range.
  const url = await shareLink(page, server, mediaId);
  const { guest, visitor, share, video } = await openAsGuest(browser, server, url, { hasTouch: true });
  try {
    await pauseAt(video, 0.5);
    const shareStrip = share.getByTestId('note-markers');
    await expect(share.getByTestId('note-marker')).toHaveCount(1);
    await expect(shareStrip).toHaveAccessibleDescription(/Drag here to mark a range/);
    // Touch points are viewport coordinates: the strip must be on screen.
    await shareStrip.scrollIntoViewIfNeeded();
    const from = await pointAt(shareStrip, 0.65);
    const until = await pointAt(shareStrip, 0.9);
    const cdp = await guest.newCDPSession(visitor);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number, y: number) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y, id: 1 }] });
    await touch('touchStart', from.x, from.y);
    for (let i = 1; i <= 8; i++) await touch('touchMove', from.x + ((until.x - from.x) * i) / 8, from.y);
    await touch('touchEnd', until.x, until.y);
    // Without the strip's touch-action the browser takes a sideways swipe as its own gesture
    // (here, back in history): the page is gone and so is the range.
    await expect(share.getByTestId('range-text')).not.toContainText('not set');
    const guestRange = await shownRange(share);
    expect(Math.abs(guestRange.from - 0.65 * duration)).toBeLessThanOrEqual(2 * FRAME);
    expect(Math.abs(guestRange.to! - 0.9 * duration)).toBeLessThanOrEqual(2 * FRAME);
  } finally {
    await guest.close();
  }
});

/** The share page at `url` in a visitor's own browser context (closed by the caller), hydrated. */
async function openAsGuest(browser: Browser, server: TestServer, url: string, options: Pick<BrowserContextOptions, 'hasTouch' | 'colorScheme'> = {}) {
  const guest = await browser.newContext({ baseURL: server.url, ...options });
  await storeCookieChoice(guest);
  const visitor = await guest.newPage();
  await visitor.goto(url);
  await islandsReady(visitor);
  const share = visitor.getByTestId('share-item');
  return { guest, visitor, share, video: share.getByTestId('share-video') };
}

async function shareLink(page: Page, server: TestServer, mediaId: number): Promise<string> {
  const link = await page.request.post('/api/share-links', { headers: { Origin: server.url }, data: { name: 'Keys link', mediaIds: [mediaId], allowComment: true } });
  expect(link.status()).toBe(201);
  return (await link.json()).url as string;
}

test('share page: L and K, ? and a range note with I and O (endMs stored, a bar)', async ({ page, server, browser }) => {
  test.setTimeout(120_000);
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
  const mediaId = await uploadClip(page, server, 'Shared Keys');
  const url = await shareLink(page, server, mediaId);
  const { guest, visitor, share, video } = await openAsGuest(browser, server, url);
  try {
    const area = share.getByTestId('player-area');
    await pauseAt(video, 0);
    await mute(video);
    await area.focus();
    await visitor.keyboard.press('l');
    await visitor.keyboard.press('l');
    await expect.poll(() => state(video)).toMatchObject({ paused: false, rate: 2 });
    await visitor.keyboard.press('k');
    await expect.poll(async () => (await state(video)).paused).toBe(true);
    await visitor.keyboard.press('?');
    await expect(visitor.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await visitor.keyboard.press('Escape');
    await expect(visitor.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeHidden();

    await pauseAt(video, 1);
    await area.focus();
    await visitor.keyboard.press('i');
    await pauseAt(video, 2.5);
    await area.focus();
    await visitor.keyboard.press('o');
    await expect(share.getByTestId('range-text')).toHaveText('In 00:01.00 – Out 00:02.12');
    await visitor.getByLabel('Your name').fill('Guest Gill');
    await share.getByRole('textbox', { name: 'Note', exact: true }).fill('Guest range');
    await share.getByRole('button', { name: 'Add note' }).click();
    await expect(share.getByRole('list', { name: /Timeline notes/ })).toContainText('Guest range');
    const c = (await server.sql.execute({ sql: "SELECT timestamp_ms, end_ms FROM share_comments WHERE text = 'Guest range'", args: [] })).rows[0]!;
    expect(Math.abs(Number(c.timestamp_ms) - 1000)).toBeLessThan(1000 * FRAME);
    expect(Math.abs(Number(c.end_ms) - 2500)).toBeLessThan(1000 * FRAME);
    const duration = await video.evaluate((v: HTMLVideoElement) => v.duration);
    expect(Math.abs((await markerShare(share)) - 1.5 / duration)).toBeLessThan(0.02);
  } finally {
    await guest.close();
  }
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`${colorScheme}: the admin dialog with a range marked and the keys list open, and the share page's player, are axe clean`, async ({ page, server, browser }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme });
    await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
    const title = `Keys ${colorScheme}`;
    const mediaId = await uploadClip(page, server, title);
    const res = await page.request.post(`/api/media/${mediaId}/timeline-notes`, { headers: { Origin: server.url }, data: { text: 'A range', timestampMs: 1000, endMs: 2500 } });
    expect(res.status()).toBe(201);
    const dialog = await openAdmin(page, title);
    const player = dialog.getByTestId('detail-video');
    await pauseAt(player, 1);
    await dialog.getByRole('button', { name: /Mark in/ }).click();
    await pauseAt(player, 2);
    await dialog.getByRole('button', { name: /Mark out/ }).click();
    await dialog.getByRole('switch', { name: /Loop range/ }).check();
    await expect(dialog.getByTestId('loop-state')).toBeVisible();
    await expect(dialog.getByTestId('loop-note')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByTestId('player-area').focus();
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    const url = await shareLink(page, server, mediaId);
    const { guest, visitor, share, video } = await openAsGuest(browser, server, url, { colorScheme });
    try {
      await pauseAt(video, 1);
      await share.getByRole('button', { name: /Mark out/ }).click();
      await expect(share.getByTestId('range-error')).toBeVisible();
      await share.getByTestId('player-area').focus();
      await visitor.keyboard.press('?');
      await expect(visitor.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
      expect(await seriousViolations(visitor)).toEqual([]);
    } finally {
      await guest.close();
    }
  });
}
