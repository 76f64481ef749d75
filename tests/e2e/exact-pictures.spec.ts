// Exact pictures in the browser (issue 39): footage whose every frame carries its number in its
// picture (tests/helpers/frame-fixture.ts) is uploaded as studios send it (ProRes with PCM sound,
// 25 fps, 1280x720: a 720p and a 360p proxy, streamed), and each review player is read through a
// canvas: after `.` pressed N times the picture shows frame N; a note saved there names frame N;
// clicking the note and its marker shows frame N again. The compare view and the public watch
// page show frame k when asked for k/25 s. Before the fix every converted picture after the first
// was a frame late (frame k-1 shown at k/25 s).
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { test, expect, ADMIN } from './fixtures.ts';
import { islandsReady, signInAs } from './admin-helpers.ts';
import { createClientWithPortalLogin } from '../helpers/portal-fixtures.ts';
import { staffSession } from '../helpers/http.ts';
import { createUpload, patchUpload } from '../helpers/tus.ts';
import type { TestServer } from '../helpers/server.ts';
import { BITS, frameSource, readShownFrame, type FrameSourceSpec } from '../helpers/frame-fixture.ts';
import { conversionsDone, pauseAt, signInClient, uploadNumbered } from './review-helpers.ts';

const FPS = 25;
const SOURCE: FrameSourceSpec = { rate: '25', seconds: 5, video: 'prores', audio: { codec: 'pcm', sampleRate: 48000 }, container: 'mov', size: '1280x720' };

/** Uploads the numbered clip and waits until its whole ladder is made. */
const upload = (server: TestServer, title: string, fields: Record<string, string> = {}) => uploadNumbered(server, SOURCE, title, fields);

/** The number on the picture the video shows now (null until it has one). */
const shownFrame = (page: Page, selector: string) => page.evaluate(readShownFrame, { selector, bits: BITS });

/** Waits for the picture at the playhead to be drawn, then reads it: frame `n` or the test fails. */
async function expectShows(page: Page, selector: string, n: number) {
  await expect.poll(() => shownFrame(page, selector), { message: `${selector} shows frame ${n}` }).toBe(n);
}

/** `.` pressed `times` from where the player is, focus in its area. */
async function stepForward(page: Page, area: Locator, times: number) {
  await area.focus();
  for (let i = 0; i < times; i++) await page.keyboard.press('.');
}

/** From the first frame: 1, 10, 37 and 100 presses (the frames), read after each. */
async function walkFrames(page: Page, area: Locator, player: Locator, selector: string) {
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(2);
  await pauseAt(player, 0);
  await expectShows(page, selector, 0);
  let at = 0;
  for (const k of [1, 10, 37, 100]) {
    await stepForward(page, area, k - at);
    at = k;
    await expectShows(page, selector, k);
  }
}

/** The frame a stored note names: its time read as the app reads it (frames.ts, 5 % slack). */
async function noteFrame(server: TestServer, table: 'timeline_notes' | 'share_comments', text: string): Promise<number> {
  const col = table === 'timeline_notes' ? 'note_text' : 'text';
  const ms = await expect
    .poll(async () => (await server.sql.execute({ sql: `SELECT timestamp_ms FROM ${table} WHERE ${col} = ?`, args: [text] })).rows[0]?.timestamp_ms, { message: `the note "${text}" stored` })
    .not.toBeUndefined()
    .then(async () => Number((await server.sql.execute({ sql: `SELECT timestamp_ms FROM ${table} WHERE ${col} = ?`, args: [text] })).rows[0]!.timestamp_ms));
  return Math.floor((ms * FPS) / 1000 + 0.05);
}

/** Back to frame 0, then a click on the note (or its marker) must show the note's frame. */
async function clickShows(page: Page, player: Locator, selector: string, target: Locator, n: number) {
  await pauseAt(player, 0);
  await expectShows(page, selector, 0);
  await target.click();
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  await expectShows(page, selector, n);
}

test('admin dialog: `.` steps show frames 1, 10, 37, 100; a note saved at 37 names frame 37; its row and marker show frame 37', async ({ page, server }) => {
  test.setTimeout(240_000);
  const id = await upload(server, 'Numbered Cut');
  await signInAs(page, ADMIN.username, ADMIN.password, `/admin/media?item=${id}`);
  const dialog = page.getByRole('dialog', { name: 'Numbered Cut' });
  const player = dialog.getByTestId('detail-video');
  const selector = '[data-testid="detail-video"]';
  const area = dialog.getByTestId('player-area');
  await walkFrames(page, area, player, selector);
  await pauseAt(player, 0);
  await stepForward(page, area, 37);
  await expectShows(page, selector, 37);
  await expect(dialog.getByLabel('Time (seconds)')).toHaveValue('1.48');
  const form = dialog.getByTestId('staff-note-form');
  await form.getByRole('textbox', { name: 'Note' }).fill('Flash on 37');
  await form.getByRole('button', { name: 'Add note' }).click();
  await expect(dialog.getByTestId('timeline-notes')).toContainText('Flash on 37');
  expect(await noteFrame(server, 'timeline_notes', 'Flash on 37')).toBe(37);
  await clickShows(page, player, selector, dialog.getByTestId('timeline-notes').getByTestId('note-seek').filter({ hasText: 'Flash on 37' }), 37);
  await clickShows(page, player, selector, dialog.getByTestId('note-marker'), 37);
});

test('portal dialog: `.` steps show frames 1, 10, 37, 100; a client note at 37 names frame 37; its row and marker show it', async ({ page, server }) => {
  test.setTimeout(240_000);
  const login = await createClientWithPortalLogin(server, 'Numbers Co');
  await upload(server, 'Numbered Portal Cut', { clientId: String(login.clientId) });
  await signInClient(page, login);
  await page.getByRole('button', { name: 'Open Numbered Portal Cut' }).click();
  const dialog = page.getByRole('dialog', { name: 'Numbered Portal Cut' });
  await dialog.getByRole('tab', { name: 'Timeline' }).click();
  const player = dialog.getByTestId('portal-video');
  const selector = '[data-testid="portal-video"]';
  const area = dialog.getByTestId('player-area');
  await walkFrames(page, area, player, selector);
  await pauseAt(player, 0);
  await stepForward(page, area, 37);
  await expectShows(page, selector, 37);
  await dialog.getByRole('textbox', { name: 'Note' }).fill('Client flash on 37');
  await dialog.getByRole('button', { name: 'Add Note' }).click();
  await expect(dialog.getByTestId('timeline-list')).toContainText('Client flash on 37');
  expect(await noteFrame(server, 'timeline_notes', 'Client flash on 37')).toBe(37);
  await clickShows(page, player, selector, dialog.getByTestId('timeline-list').getByRole('button', { name: /Client flash on 37/ }), 37);
  await clickShows(page, player, selector, dialog.getByTestId('note-marker'), 37);
});

test('share page: `.` steps show frames 1, 10, 37, 100; a guest note at 37 names frame 37; its row and marker show it', async ({ page, server, browser }) => {
  test.setTimeout(240_000);
  const id = await upload(server, 'Numbered Link Cut');
  const staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const link = await staff.json('POST', '/api/share-links', { name: 'Numbers link', mediaIds: [id], allowComment: true });
  expect(link.status).toBe(201);
  const guest = await browser.newContext({ baseURL: server.url });
  try {
    const visitor = await guest.newPage();
    await visitor.goto(link.body.url);
    await islandsReady(visitor);
    const share = visitor.getByTestId('share-item');
    const player = share.getByTestId('share-video');
    const selector = '[data-testid="share-video"]';
    const area = share.getByTestId('player-area');
    await walkFrames(visitor, area, player, selector);
    await pauseAt(player, 0);
    await stepForward(visitor, area, 37);
    await expectShows(visitor, selector, 37);
    await visitor.getByLabel('Your name').fill('Guest Gill');
    await share.getByRole('textbox', { name: 'Note', exact: true }).fill('Guest flash on 37');
    await share.getByRole('button', { name: 'Add note' }).click();
    expect(await noteFrame(server, 'share_comments', 'Guest flash on 37')).toBe(37);
    const row = share.getByRole('listitem').filter({ hasText: 'Guest flash on 37' });
    await expect(row).toBeVisible();
    await clickShows(visitor, player, selector, row.getByTestId('note-seek'), 37);
    await clickShows(visitor, player, selector, share.getByTestId('note-marker'), 37);
  } finally {
    await guest.close();
  }
  void page;
});

test('compare view: both versions show frame k after k steps, and the same frame as each other', async ({ page, server }) => {
  test.setTimeout(300_000);
  const id = await upload(server, 'Numbered Versions');
  const staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const data = new Uint8Array(fs.readFileSync(frameSource(SOURCE)));
  const up = await createUpload(staff, data.length, { filename: 'v2.mov' });
  expect((await patchUpload(staff, up.id!, 0, data)).status).toBe(204);
  expect((await staff.json('POST', `/api/media/${id}/versions`, { uploadId: up.id })).status).toBe(201);
  await conversionsDone(server, id);
  await signInAs(page, ADMIN.username, ADMIN.password, `/admin/media?item=${id}&compare=1,2`);
  const dialog = page.getByRole('dialog', { name: 'Compare versions: Numbered Versions' });
  for (const side of ['left', 'right']) await expect.poll(() => dialog.getByTestId(`compare-${side}`).evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(2);
  await expectShows(page, '[data-testid="compare-left"]', 0);
  await expectShows(page, '[data-testid="compare-right"]', 0);
  await dialog.getByRole('button', { name: 'Play both' }).focus();
  let at = 0;
  for (const k of [1, 10, 37]) {
    for (; at < k; at++) await page.keyboard.press('.');
    await expectShows(page, '[data-testid="compare-left"]', k);
    await expectShows(page, '[data-testid="compare-right"]', k);
  }
});

test('watch page: the public player shows frame k at k/25 s (+1 ms) for k = 1, 10, 37, 100', async ({ page, server }) => {
  test.setTimeout(240_000);
  const id = await upload(server, 'Numbered Film', { showInPortfolio: 'true' });
  const slug = String((await server.sql.execute({ sql: 'SELECT slug FROM media WHERE id = ?', args: [id] })).rows[0]!.slug);
  await page.goto(`/portfolio/${slug}`);
  await page.locator('astro-island[component-url*="WatchPlayer"]:not([ssr])').waitFor({ state: 'attached' });
  const player = page.getByTestId('watch-video');
  const selector = '[data-testid="watch-video"]';
  for (const k of [1, 10, 37, 100]) {
    await pauseAt(player, k / FPS + 0.001);
    await expectShows(page, selector, k);
  }
});
