// Frame-accurate notes in the three review screens (issue 29, the UI): the note's time field
// follows the playhead on pause and on every seek and frame step while paused, shows mm:ss.ff
// with the SMPTE timecode, and is saved to the millisecond; a note reopens paused on its frame;
// the seek bar carries a marker per note (placed by time, click seeks); the `,` and `.` keys
// step a frame with focus anywhere in the player area; axe clean in both themes. The clip is
// made by ffmpeg at 25 fps, so one frame is 40 ms.
import type { Locator, Page } from '@playwright/test';
import { test, expect, ADMIN } from './fixtures.ts';
import { islandsReady, signInAs } from './admin-helpers.ts';
import { seriousViolations } from './public-helpers.ts';
import { createClientWithPortalLogin } from '../helpers/portal-fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { FPS, FRAME, currentTime, pauseAt, signInClient, uploadClip } from './review-helpers.ts';

async function notesOf(server: TestServer, mediaId: number) {
  const r = await server.sql.execute({ sql: 'SELECT note_text, timestamp_seconds, timestamp_ms FROM timeline_notes WHERE media_id = ? ORDER BY id', args: [mediaId] });
  return r.rows.map((row) => ({ text: String(row.note_text), seconds: Number(row.timestamp_seconds), ms: Number(row.timestamp_ms) }));
}

/** Each marker's left edge (its centre for a point) against the strip, as a share of its width. */
async function markerPlaces(page: Page, scope: Locator) {
  const strip = scope.getByTestId('note-markers');
  const box = (await strip.boundingBox())!;
  const markers = strip.getByTestId('note-marker');
  const out: { ms: number; f: number }[] = [];
  for (let i = 0; i < (await markers.count()); i++) {
    const m = markers.nth(i);
    const b = (await m.boundingBox())!;
    out.push({ ms: Number(await m.getAttribute('data-ms')), f: (b.x + b.width / 2 - box.x) / box.width });
  }
  return out;
}

test('portal: seek and frame steps while paused fill the time, saved to the frame; a note reopens paused on its frame; markers place and seek', async ({ page, server }) => {
  test.setTimeout(120_000);
  const login = await createClientWithPortalLogin(server, 'Frames Co');
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
  const mediaId = await uploadClip(page, server, 'Frame Cut', login.clientId);
  const versions = await (await page.request.get(`/api/media/${mediaId}/versions`)).json();
  expect(versions[0].frameRate).toBeCloseTo(FPS, 3);
  await page.context().clearCookies();

  await signInClient(page, login);
  await page.getByRole('button', { name: 'Open Frame Cut' }).click();
  const dialog = page.getByRole('dialog', { name: 'Frame Cut' });
  await dialog.getByRole('tab', { name: 'Timeline' }).click();
  const player = dialog.getByTestId('portal-video');
  const ts = dialog.getByLabel('Timestamp (seconds)');

  // A seek while paused fills the field; so does a frame step with focus on the player area.
  await pauseAt(player, 2);
  await expect(ts).toHaveValue('2');
  await expect(dialog.getByTestId('formatted-time')).toHaveText('00:02.00');
  await expect(dialog.getByTestId('formatted-smpte')).toHaveText('00:00:02:00');
  await pauseAt(player, 1.2);
  await expect(ts).toHaveValue('1.2');
  const area = dialog.getByTestId('player-area');
  await area.focus();
  await page.keyboard.press('.');
  await page.keyboard.press('.');
  await expect.poll(() => currentTime(player)).toBeCloseTo(1.2 + 2 * FRAME, 3);
  await expect(ts).toHaveValue('1.28');
  await expect(dialog.getByTestId('formatted-time')).toHaveText('00:01.07');
  await expect(dialog.getByTestId('formatted-smpte')).toHaveText('00:00:01:07');
  await page.keyboard.press(',');
  await expect(ts).toHaveValue('1.24');
  await dialog.getByRole('textbox', { name: 'Note' }).fill('Flash frame here');
  await dialog.getByRole('button', { name: 'Add Note' }).click();
  await expect(dialog.getByTestId('timeline-list')).toContainText('Flash frame here');
  let stored = await notesOf(server, mediaId);
  expect(stored[0]!.seconds).toBe(1);
  expect(Math.abs(stored[0]!.ms - 1240)).toBeLessThan(1000 * FRAME);

  // A note at 3.64 s, typed in; then one begun while playing lands where writing began.
  await ts.fill('3.64');
  await expect(dialog.getByTestId('formatted-time')).toHaveText('00:03.16');
  await dialog.getByRole('textbox', { name: 'Note' }).fill('Logo sting');
  await dialog.getByRole('button', { name: 'Add Note' }).click();
  await expect(dialog.getByTestId('timeline-list')).toContainText('Logo sting');
  await pauseAt(player, 0.5);
  await player.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect.poll(() => currentTime(player)).toBeGreaterThan(0.8);
  const note = dialog.getByRole('textbox', { name: 'Note' });
  await note.focus();
  const began = Number(await ts.inputValue());
  expect(began).toBeGreaterThan(0.8);
  await note.pressSequentially('Typed while it played', { delay: 20 });
  await expect.poll(() => currentTime(player)).toBeGreaterThan(began + 0.4);
  await player.evaluate((v: HTMLVideoElement) => v.pause());
  await expect(ts).toHaveValue(String(began));
  await dialog.getByRole('button', { name: 'Add Note' }).click();
  await expect(dialog.getByTestId('timeline-list')).toContainText('Typed while it played');
  stored = await notesOf(server, mediaId);
  expect(stored.map((n) => n.text)).toEqual(['Flash frame here', 'Logo sting', 'Typed while it played']);
  expect(stored[1]).toMatchObject({ seconds: 3, ms: 3640 });
  expect(Math.abs(stored[2]!.ms - began * 1000)).toBeLessThan(1000 * FRAME);

  // The API gives the exact time back; after a reload the 3.64 s note reopens paused on its frame.
  const listed = await (await page.request.get('/api/client/media/timeline-notes')).json();
  expect(listed.find((n: { noteText: string }) => n.noteText === 'Logo sting')).toMatchObject({ timestampSeconds: 3, timestampMs: 3640 });
  await page.reload();
  await islandsReady(page);
  await page.getByRole('button', { name: 'Open Frame Cut' }).click();
  await dialog.getByRole('tab', { name: 'Timeline' }).click();
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThan(0);
  await dialog.getByTestId('timeline-list').getByRole('button', { name: /Logo sting/ }).click();
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  await expect.poll(async () => Math.abs((await currentTime(player)) - 3.64)).toBeLessThan(FRAME);
  await expect(ts).toHaveValue('3.64');
  // The time chip stays on one line.
  const chip = dialog.getByTestId('timeline-list').getByRole('listitem').filter({ hasText: 'Logo sting' }).locator('[data-smpte]');
  await expect(chip).toHaveAttribute('title', 'Timecode 00:00:03:16');
  await expect(chip).toHaveCSS('white-space', 'nowrap');

  // Markers: one per note, at time / duration of the strip, open in gold; a click seeks.
  const markers = dialog.getByTestId('note-marker');
  await expect(markers).toHaveCount(3);
  const duration = await player.evaluate((v: HTMLVideoElement) => v.duration);
  for (const { ms, f } of await markerPlaces(page, dialog)) expect(Math.abs(f - ms / 1000 / duration)).toBeLessThan(0.02);
  const first = dialog.locator(`[data-testid="note-marker"][data-ms="${stored[0]!.ms}"]`);
  await first.hover();
  await expect(dialog.getByTestId('marker-tooltip')).toContainText(login.username);
  await expect(dialog.getByTestId('marker-tooltip')).toContainText('Flash frame here');
  await first.click();
  await expect.poll(async () => Math.abs((await currentTime(player)) - 1.24)).toBeLessThan(FRAME);
  await expect(ts).toHaveValue('1.24');
});

test('admin: markers for the version, staff note after a seek while paused, `,`/`.` from the player area; share page: time and markers too', async ({ page, server, browser }) => {
  test.setTimeout(120_000);
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
  const mediaId = await uploadClip(page, server, 'Staff Cut');
  // A resolved client-side note and an open one, through the staff API (exact times).
  for (const [ms, text] of [[1000, 'Open one'], [4000, 'Resolved one']] as const) {
    const res = await page.request.post(`/api/media/${mediaId}/timeline-notes`, { headers: { Origin: server.url }, data: { text, timestampMs: ms } });
    expect(res.status()).toBe(201);
  }
  await server.sql.execute({ sql: "UPDATE timeline_notes SET resolved_at = datetime('now') WHERE note_text = 'Resolved one'", args: [] });

  await page.goto('/admin/media');
  await islandsReady(page);
  await page.getByRole('button', { name: 'Open Staff Cut' }).click();
  const dialog = page.getByRole('dialog', { name: 'Staff Cut' });
  const player = dialog.getByTestId('detail-video');
  const markers = dialog.getByTestId('note-marker');
  await expect(markers).toHaveCount(2);
  await expect(markers.nth(0)).toHaveAttribute('data-state', 'open');
  await expect(markers.nth(1)).toHaveAttribute('data-state', 'resolved');
  const duration = await player.evaluate((v: HTMLVideoElement) => v.duration);
  for (const { ms, f } of await markerPlaces(page, dialog)) expect(Math.abs(f - ms / 1000 / duration)).toBeLessThan(0.02);
  await markers.nth(1).click();
  await expect.poll(async () => Math.abs((await currentTime(player)) - 4)).toBeLessThan(FRAME);

  // Frame keys with focus on the seek bar (inside the player area, not the video element).
  const time = dialog.getByLabel('Time (seconds)');
  await pauseAt(player, 2.4);
  await expect(time).toHaveValue('2.4');
  await dialog.getByTestId('review-seek').focus();
  await page.keyboard.press('.');
  await expect.poll(() => currentTime(player)).toBeCloseTo(2.4 + FRAME, 3);
  await expect(time).toHaveValue('2.44');
  await dialog.getByTestId('player-area').focus();
  await page.keyboard.press(',');
  await page.keyboard.press(',');
  await expect(time).toHaveValue('2.36');
  await expect(dialog.getByTestId('formatted-time')).toHaveText('00:02.09');
  const form = dialog.getByTestId('staff-note-form');
  await form.getByRole('textbox', { name: 'Note' }).fill('Grade this shot');
  await form.getByRole('switch', { name: /Internal/ }).check();
  await form.getByRole('button', { name: 'Add note' }).click();
  await expect(dialog.getByTestId('timeline-notes')).toContainText('Grade this shot');
  await expect(markers).toHaveCount(3);
  const row = (await notesOf(server, mediaId)).find((n) => n.text === 'Grade this shot')!;
  expect(Math.abs(row.ms - 2360)).toBeLessThan(1000 * FRAME);

  // The share page: a link allowing comments, the same field and markers.
  const link = await page.request.post('/api/share-links', { headers: { Origin: server.url }, data: { name: 'Frames link', mediaIds: [mediaId], allowComment: true } });
  expect(link.status()).toBe(201);
  const guest = await browser.newContext({ baseURL: server.url });
  try {
    const visitor = await guest.newPage();
    await visitor.goto((await link.json()).url);
    await islandsReady(visitor);
    const share = visitor.getByTestId('share-item');
    const video = share.getByTestId('share-video');
    // The internal staff note is not shown to the link; the two others are.
    await expect(share.getByTestId('note-marker')).toHaveCount(2);
    await pauseAt(video, 3);
    const field = share.getByLabel('Time (seconds)');
    await expect(field).toHaveValue('3');
    await share.getByTestId('player-area').focus();
    await visitor.keyboard.press('.');
    await expect(field).toHaveValue('3.04');
    await expect(share.getByTestId('formatted-time')).toHaveText('00:03.01');
    await visitor.getByLabel('Your name').fill('Guest Gill');
    await share.getByRole('textbox', { name: 'Note', exact: true }).fill('Guest note on a frame');
    await share.getByRole('button', { name: 'Add note' }).click();
    await expect(share.getByRole('list', { name: /Timeline notes/ })).toContainText('Guest note on a frame');
    const c = await server.sql.execute({ sql: "SELECT timestamp_ms FROM share_comments WHERE text = 'Guest note on a frame'", args: [] });
    expect(Math.abs(Number(c.rows[0]!.timestamp_ms) - 3040)).toBeLessThan(1000 * FRAME);
    await expect(share.getByTestId('note-marker')).toHaveCount(3);
    // A click on the note in the list pauses on its frame.
    await pauseAt(video, 0.5);
    await share.getByRole('list', { name: /Timeline notes/ }).getByRole('listitem').filter({ hasText: 'Guest note on a frame' }).getByTestId('note-seek').click();
    await expect.poll(async () => Math.abs((await currentTime(video)) - 3.04)).toBeLessThan(FRAME);
  } finally {
    await guest.close();
  }
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`${colorScheme}: the portal dialog and the admin dialog with markers and the time field are axe clean`, async ({ page, server }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme });
    const login = await createClientWithPortalLogin(server, `Axe ${colorScheme}`);
    await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
    const title = `Axe ${colorScheme} cut`;
    const mediaId = await uploadClip(page, server, title, login.clientId);
    for (const ms of [600, 2500, 4800]) {
      const res = await page.request.post(`/api/media/${mediaId}/timeline-notes`, { headers: { Origin: server.url }, data: { text: `Studio note at ${ms}`, timestampMs: ms, ...(ms === 2500 ? { endMs: 3500 } : {}) } });
      expect(res.status()).toBe(201);
    }
    await page.goto('/admin/media');
    await islandsReady(page);
    await page.getByRole('button', { name: `Open ${title}` }).click();
    const detail = page.getByRole('dialog', { name: title });
    await expect(detail.getByTestId('note-marker')).toHaveCount(3);
    await detail.getByTestId('note-marker').first().focus();
    await expect(detail.getByTestId('marker-tooltip')).toBeVisible();
    // Arrow keys move between markers (one tab stop).
    await page.keyboard.press('ArrowRight');
    await expect(detail.getByTestId('note-marker').nth(1)).toBeFocused();
    await expect(detail.getByTestId('marker-tooltip')).toContainText('Studio note at 2500');
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().clearCookies();

    await signInClient(page, login);
    await page.getByRole('button', { name: `Open ${title}` }).click();
    const dialog = page.getByRole('dialog', { name: title });
    await dialog.getByRole('tab', { name: 'Timeline' }).click();
    await expect(dialog.getByTestId('note-marker')).toHaveCount(3);
    await pauseAt(dialog.getByTestId('portal-video'), 1);
    await expect(dialog.getByTestId('formatted-smpte')).toHaveText('00:00:01:00');
    expect(await seriousViolations(page)).toEqual([]);
  });
}
