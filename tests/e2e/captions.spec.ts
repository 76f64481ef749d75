// Captions in every player (issue 54), table-driven: the admin dialog (streamed by hls.js), the
// portal dialog, the share page, the compare view, the public watch page and the portfolio's
// dialog. Footage whose frames carry their number (tests/helpers/frame-fixture.ts): a cue from
// 1.010 s to 2.000 s shows from frame 26 (the first at or after its start) to frame 49, so at
// each of frames 25, 26, 49 and 50 the picture is read and the active cue checked. The CC choice
// is remembered by the browser; a live session's follower sees the presenter's choice until
// they pick one themselves.
import fs from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { test, expect, ADMIN, oncePerServer } from './fixtures.ts';
import { islandsReady, signInAs } from './admin-helpers.ts';
import { createClientWithPortalLogin, type ClientLogin } from '../helpers/portal-fixtures.ts';
import { Session, staffSession } from '../helpers/http.ts';
import { createUpload, patchUpload } from '../helpers/tus.ts';
import type { TestServer } from '../helpers/server.ts';
import { BITS, frameSource, readShownFrame, type FrameSourceSpec } from '../helpers/frame-fixture.ts';
import { srt, uploadCaption } from '../helpers/captions.ts';
import { conversionsDone, pauseAt, signInClient } from './review-helpers.ts';

const SOURCE: FrameSourceSpec = { rate: '25', seconds: 4, video: 'h264', audio: { codec: 'aac', sampleRate: 48000 }, container: 'mp4', size: '1280x720' };
const TITLE = 'Captioned Cut';
const HELLO = 'Hello from frame 26';

const fixture: { mediaId: number; slug: string; client: ClientLogin; linkPath: string } = { mediaId: 0, slug: '', client: null!, linkPath: '' };

const versions = async (staff: Session) => (await staff.json('GET', `/api/media/${fixture.mediaId}/versions`)).body as { id: number; number: number }[];

const setUp = oncePerServer(async (server) => {
  const staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
  fixture.client = await createClientWithPortalLogin(server, 'Captions Co');
  const data = new Uint8Array(fs.readFileSync(frameSource(SOURCE)));
  const form = new FormData();
  for (const [k, v] of Object.entries({ title: TITLE, isFeatured: 'false', showInPortfolio: 'true', clientId: String(fixture.client.clientId) })) form.set(k, v);
  form.set('file', new Blob([data], { type: 'video/mp4' }), 'numbered.mp4');
  const created = await staff.json('POST', '/api/media', form);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  fixture.mediaId = created.body.id;
  await conversionsDone(server, fixture.mediaId);
  const [v1] = await versions(staff);
  const cues = srt([
    [1010, 2000, HELLO],
    [2500, 3000, 'Second line'],
  ]);
  expect((await uploadCaption(staff, fixture.mediaId, v1!.id, cues, { language: 'en', label: 'English', published: 'true' })).status).toBe(201);
  expect((await uploadCaption(staff, fixture.mediaId, v1!.id, srt([[1010, 2000, 'Bonjour']]), { language: 'fr', label: 'Français' })).status).toBe(201);
  // Version 2, the same footage, its captions carried over: the compare view shows both.
  const up = await createUpload(staff, data.length, { filename: 'v2.mp4' });
  expect((await patchUpload(staff, up.id!, 0, data)).status).toBe(204);
  expect((await staff.json('POST', `/api/media/${fixture.mediaId}/versions`, { uploadId: up.id })).status).toBe(201);
  await conversionsDone(server, fixture.mediaId);
  const v2 = (await versions(staff)).find((v) => v.number === 2)!;
  expect((await staff.json('POST', `/api/media/${fixture.mediaId}/versions/${v2.id}/captions/carry-over`)).status).toBe(200);
  fixture.slug = String((await server.sql.execute({ sql: 'SELECT slug FROM media WHERE id = ?', args: [fixture.mediaId] })).rows[0]!.slug);
  const link = await staff.json('POST', '/api/share-links', { name: 'Captions link', mediaIds: [fixture.mediaId] });
  expect(link.status, JSON.stringify(link.body)).toBe(201);
  fixture.linkPath = new URL(link.body.url).pathname;
});

test.beforeEach(async ({ server }, testInfo) => {
  // Two versions converted (a remux each, then its smaller size) the first time only.
  testInfo.setTimeout(testInfo.timeout + 240_000);
  await setUp({ server });
});

/** The text of the cues the element shows now (its showing track's active cues), or null. */
const activeCue = (player: Locator) =>
  player.evaluate((v: HTMLVideoElement) => {
    const t = Array.from(v.textTracks).find((x) => x.mode === 'showing');
    const cues = t?.activeCues ? Array.from(t.activeCues as unknown as ArrayLike<VTTCue>) : [];
    return cues.length ? cues.map((c) => c.text).join('|') : null;
  });

/** Where the frame step puts frame k (frames.ts frameSeekTime). */
const frameTime = (k: number) => k / 25 + 0.0001;

/** At frames 26 and 49 the cue is active, at 25 and 50 not; each time the picture shows that frame. */
async function cueOnItsFrames(page: Page, player: Locator, selector: string) {
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  for (const [k, text] of [
    [26, HELLO],
    [25, null],
    [49, HELLO],
    [50, null],
  ] as const) {
    await pauseAt(player, frameTime(k));
    await expect.poll(() => page.evaluate(readShownFrame, { selector, bits: BITS }), { message: `${selector} shows frame ${k}` }).toBe(k);
    await expect.poll(() => activeCue(player), { message: `the cue active at frame ${k}` }).toBe(text);
  }
}

interface Opened {
  page: Page;
  /** Where the CC menu is. */
  scope: Locator;
  player: Locator;
  selector: string;
}

const players: [string, (page: Page, server: TestServer) => Promise<Opened>][] = [
  [
    'admin dialog (hls.js)',
    async (page) => {
      await signInAs(page, ADMIN.username, ADMIN.password, `/admin/media?item=${fixture.mediaId}`);
      const dialog = page.getByRole('dialog', { name: TITLE });
      const player = dialog.getByTestId('detail-video');
      await expect(player).toHaveAttribute('data-stream', 'hls');
      return { page, scope: dialog.getByTestId('review-transport'), player, selector: '[data-testid="detail-video"]' };
    },
  ],
  [
    'portal dialog',
    async (page) => {
      await signInClient(page, fixture.client);
      await page.getByRole('button', { name: `Open ${TITLE}` }).click();
      const dialog = page.getByRole('dialog', { name: TITLE });
      return { page, scope: dialog.getByTestId('review-transport'), player: dialog.getByTestId('portal-video'), selector: '[data-testid="portal-video"]' };
    },
  ],
  [
    'share page',
    async (page) => {
      await page.goto(fixture.linkPath);
      await islandsReady(page);
      const item = page.getByTestId('share-item');
      return { page, scope: item.getByTestId('review-transport'), player: item.getByTestId('share-video'), selector: '[data-testid="share-video"]' };
    },
  ],
  [
    'compare view (the side heard)',
    async (page) => {
      await signInAs(page, ADMIN.username, ADMIN.password, `/admin/media?item=${fixture.mediaId}&compare=1,2`);
      const dialog = page.getByRole('dialog', { name: `Compare versions: ${TITLE}` });
      return { page, scope: dialog.getByTestId('compare-transport'), player: dialog.getByTestId('compare-right'), selector: '[data-testid="compare-right"]' };
    },
  ],
  [
    'public watch page',
    async (page) => {
      await page.goto(`/portfolio/${fixture.slug}`);
      await page.locator('astro-island[component-url*="WatchPlayer"]:not([ssr])').waitFor({ state: 'attached' });
      const player = page.getByTestId('watch-video');
      await player.hover();
      return { page, scope: page.getByTestId('player-controls'), player, selector: '[data-testid="watch-video"]' };
    },
  ],
  [
    'portfolio dialog',
    async (page) => {
      await page.goto('/portfolio');
      await islandsReady(page);
      await page.getByRole('link', { name: `Play ${TITLE}` }).click();
      const dialog = page.getByTestId('media-player');
      const player = dialog.getByTestId('player-video');
      await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
      await player.evaluate((v: HTMLVideoElement) => v.pause());
      return { page, scope: dialog.getByTestId('player-controls'), player, selector: '[data-testid="player-video"]' };
    },
  ],
];

for (const [name, open] of players) {
  test(`${name}: the CC menu offers the version's tracks and Off; the chosen cue shows from its first frame to its last`, async ({ page, server }) => {
    test.setTimeout(120_000);
    const o = await open(page, server);
    const menu = o.scope.getByTestId('captions-menu');
    // The public sees the published track only; everyone else every track of the version.
    await expect(menu.locator('option')).toHaveText(name.startsWith('public') || name.startsWith('portfolio') ? ['Off', 'English'] : ['Off', 'English', 'Français']);
    await menu.selectOption({ label: 'English' });
    await cueOnItsFrames(o.page, o.player, o.selector);
    await menu.selectOption({ label: 'Off' });
    await expect.poll(() => activeCue(o.player)).toBeNull();
  });
}

test('the choice is remembered by the browser: another player, after a reload, shows the same language', async ({ page }) => {
  await signInAs(page, ADMIN.username, ADMIN.password, `/admin/media?item=${fixture.mediaId}`);
  const dialog = page.getByRole('dialog', { name: TITLE });
  await dialog.getByTestId('captions-menu').selectOption({ label: 'Français' });
  await page.goto(`/portfolio/${fixture.slug}`);
  await page.locator('astro-island[component-url*="WatchPlayer"]:not([ssr])').waitFor({ state: 'attached' });
  // The public page has no French: the same choice finds nothing there and shows Off…
  await expect(page.getByTestId('captions-menu')).toHaveValue('off');
  await page.goto(`/admin/media?item=${fixture.mediaId}`);
  // …and the review player, loaded again, still shows French.
  await expect(page.getByRole('dialog', { name: TITLE }).getByTestId('captions-menu')).toHaveValue('fr/subtitles');
});

test('a live follower sees the presenter’s captions until they choose their own', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signInAs(page, ADMIN.username, ADMIN.password, `/admin/media?item=${fixture.mediaId}`);
  await islandsReady(page);
  const dialog = page.getByRole('dialog', { name: TITLE });
  await dialog.getByTestId('captions-menu').selectOption({ label: 'English' });
  await dialog.getByRole('button', { name: 'Review live' }).click();
  await expect(dialog.getByTestId('live-status')).toHaveText('Live review: you are presenting');
  const context = await browser.newContext();
  try {
    const client = await context.newPage();
    await signInClient(client, fixture.client);
    await client.getByTestId('portal-live-banner').getByRole('button', { name: 'Join live review' }).click();
    const follower = client.getByRole('dialog', { name: TITLE });
    await expect(follower.getByTestId('live-status')).toHaveText(/Live review: following/);
    const menu = follower.getByTestId('captions-menu');
    // A fresh browser (its own choice Off) shows what the presenter shows.
    await expect(menu).toHaveValue('en/subtitles');
    await dialog.getByTestId('captions-menu').selectOption({ label: 'Français' });
    await expect(menu).toHaveValue('fr/subtitles');
    // The follower picks Off: the presenter's next change no longer moves it (the presenter's
    // later move to frame 10 arrives after it, so by then it has been read).
    await menu.selectOption({ label: 'Off' });
    await dialog.getByTestId('captions-menu').selectOption({ label: 'English' });
    await pauseAt(dialog.getByTestId('detail-video'), frameTime(10));
    await expect.poll(() => client.evaluate(readShownFrame, { selector: '[data-testid="portal-video"]', bits: BITS })).toBe(10);
    await expect(menu).toHaveValue('off');
  } finally {
    await context.close();
    await dialog.getByRole('button', { name: 'End live review' }).click().catch(() => {});
  }
});

test('the admin panel: a list that fails to load says so with Retry; a file is added with how it was read, published, and deleted after a confirmation', async ({ page, server }) => {
  test.setTimeout(120_000);
  // The first answer of the list fails: the panel must not say "No captions".
  let failed = false;
  await page.route(/\/api\/media\/\d+\/versions\/\d+\/captions$/, async (route) => {
    if (route.request().method() === 'GET' && !failed) {
      failed = true;
      return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Captions are resting' }) });
    }
    return route.fallback();
  });
  await signInAs(page, ADMIN.username, ADMIN.password, `/admin/media?item=${fixture.mediaId}`);
  const panel = page.getByRole('dialog', { name: TITLE }).getByTestId('captions-panel');
  await expect(panel.getByRole('alert')).toContainText('Captions are resting');
  await expect(panel.getByText('No captions on this version yet.')).toHaveCount(0);
  await panel.getByRole('button', { name: 'Retry' }).click();
  const tracks = panel.getByTestId('caption-track');
  await expect(tracks).toHaveCount(2);

  // A Windows-1252 file from an editor's tool: the toast and the track say how it was read.
  const cp1252 = Buffer.from('1\r\n00:00:01,000 --> 00:00:02,000\r\nStra\xdfe \x93Nord\x94\r\n', 'latin1');
  const form = panel.getByRole('form', { name: 'Add captions' });
  await form.getByLabel('File (SRT, WebVTT, SBV)').setInputFiles({ name: 'de.srt', mimeType: 'application/x-subrip', buffer: cp1252 });
  await form.getByLabel('Language').fill('de');
  await form.getByLabel('Label').fill('Deutsch');
  await form.getByRole('button', { name: 'Add captions' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Deutsch: 1 cue added' })).toContainText('Read as SRT in Windows-1252 (not valid UTF-8).');
  await expect(tracks).toHaveCount(3);
  const de = tracks.filter({ hasText: 'Deutsch' });
  await expect(de.getByTestId('caption-read-as')).toHaveText('SRT, Windows-1252 (not valid UTF-8), 1 cues, revision 1 (uploaded: de.srt)');
  const staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const v2 = (await versions(staff)).find((v) => v.number === 2)!;
  const stored = async () => ((await staff.json('GET', `/api/media/${fixture.mediaId}/versions/${v2.id}/captions`)).body as { language: string; published: boolean }[]).find((t) => t.language === 'de');
  expect(await stored()).toMatchObject({ published: false });
  await de.getByRole('switch', { name: 'Published on the website' }).click();
  await expect.poll(async () => (await stored())?.published).toBe(true);

  // Deleting asks first; Cancel keeps it.
  await de.getByRole('button', { name: 'Delete Deutsch' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this caption track?' });
  await expect(confirm).toContainText('Deutsch (de) is deleted from v2 with every revision');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(tracks).toHaveCount(3);
  await de.getByRole('button', { name: 'Delete Deutsch' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(tracks).toHaveCount(2);
  await expect(page.getByTestId('toast').filter({ hasText: 'Deutsch deleted' })).toBeVisible();
  expect(await stored()).toBeUndefined();
});

for (const side of ['the media page', 'the portal'] as const) {
  test(`search on ${side} finds a caption’s words, marked, and opens the player on that version paused at the cue`, async ({ page, server }) => {
    const staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
    const v1 = (await versions(staff)).find((v) => v.number === 1)!;
    if (side === 'the portal') await signInClient(page, fixture.client);
    else await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
    await islandsReady(page);
    const box = page.getByRole('searchbox', { name: 'Search captions and notes' });
    // Typed without its accent and capital: "Bonjour" is on both versions (carried over to v2).
    await box.fill('bonjou');
    const matches = page.getByRole('list', { name: 'Caption and note matches' }).getByRole('button');
    await expect(matches).toHaveCount(2);
    const hit = matches.filter({ hasText: 'v1' });
    await expect(hit).toContainText(`${TITLE} · Français · v1 · 00:01`);
    await expect(hit.locator('mark')).toHaveText('Bonjour');
    await hit.click();
    const dialog = page.getByRole('dialog', { name: TITLE });
    await expect(dialog.getByRole('combobox', { name: 'Version' })).toHaveValue(String(v1.id));
    // Paused on the cue's first frame (1.010 s is in frame 25 at 25 fps, shown from 1.000 s).
    await expect
      .poll(() => dialog.locator('video').first().evaluate((v: HTMLVideoElement) => (v.paused && !v.seeking && v.readyState >= 2 ? Math.floor(v.currentTime * 25 + 1e-6) : -1)))
      .toBe(25);
    // A word no caption or note holds says so.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await box.fill('zzyzx ');
    await expect(page.getByRole('status').filter({ hasText: 'No captions or notes match “zzyzx”.' })).toBeVisible();
  });
}

test('search on the share page finds the words of the version the link shows and pauses its player at the cue', async ({ page }) => {
  await page.goto(fixture.linkPath);
  await islandsReady(page);
  await page.getByRole('searchbox', { name: 'Search captions and notes' }).fill('bonjou');
  // "Bonjour" is on v1 and v2; the link shows v2 only.
  const matches = page.getByRole('list', { name: 'Caption and note matches' }).getByRole('button');
  await expect(matches).toHaveCount(1);
  await expect(matches).toContainText(`${TITLE} · Français · v2 · 00:01`);
  await expect(matches.locator('mark')).toHaveText('Bonjour');
  await matches.click();
  const player = page.getByTestId('share-item').getByTestId('share-video');
  await expect
    .poll(() => player.evaluate((v: HTMLVideoElement) => (v.paused && !v.seeking && v.readyState >= 2 ? Math.floor(v.currentTime * 25 + 1e-6) : -1)))
    .toBe(25);
});

test('the cue editor: reading warnings, a frame nudge and new words saved as revision 2 for every player; History shows the changes and brings revision 1 back', async ({ page, server }) => {
  test.setTimeout(120_000);
  const staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const v2 = (await versions(staff)).find((v) => v.number === 2)!;
  const english = async () => ((await staff.json('GET', `/api/media/${fixture.mediaId}/versions/${v2.id}/captions`)).body as { label: string; src: string; revision: number }[]).find((t) => t.label === 'English')!;
  await signInAs(page, ADMIN.username, ADMIN.password, `/admin/media?item=${fixture.mediaId}`);
  const panel = page.getByRole('dialog', { name: TITLE }).getByTestId('captions-panel');
  await panel.getByRole('button', { name: 'Edit the cues of English' }).click();
  const editor = panel.getByTestId('caption-editor');
  await expect(editor.getByRole('heading', { name: 'English · revision 1' })).toBeVisible();
  // "Second line" is on screen 500 ms: under the 833 ms minimum, and 22 characters a second.
  await expect(editor.getByTestId('reading-checks')).toContainText('1 cue with warnings.');
  await expect(editor.getByRole('list', { name: 'Cue 2 warnings' }).getByRole('listitem')).toHaveText(['22 characters a second: at most 20', 'On screen 0.50 s: at least 0.833 s']);

  await editor.getByRole('button', { name: 'Cue 2 end one frame later' }).click();
  await expect(editor.getByRole('group', { name: 'Cue 2 end' })).toContainText('00:03.040');
  await editor.getByLabel('Cue 1 text').fill('Hello & welcome, edited');
  await editor.getByRole('button', { name: 'Save as revision 2' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Captions saved as revision 2' })).toBeVisible();
  await expect(editor.getByRole('heading', { name: 'English · revision 2' })).toBeVisible();
  const track = await english();
  expect(track.revision).toBe(2);
  const vtt = await (await staff.get(new URL(track.src, server.url).pathname)).text();
  expect(vtt).toContain('Hello &amp; welcome, edited');
  // The players' times are on the film's frames (2.500 s starts frame 63, at 2.520 s).
  expect(vtt).toContain('00:00:02.520 --> 00:00:03.040');

  // History: who saved what, and revision 1 brought back.
  await editor.getByRole('button', { name: 'History' }).click();
  const revs = editor.getByTestId('caption-revision');
  await expect(revs).toHaveCount(2);
  await expect(revs.first()).toContainText('Revision 2');
  await expect(revs.first()).toContainText('edited by Studio Admin');
  await revs.first().getByRole('button', { name: 'Changes' }).click();
  await expect(revs.first().locator('[data-change="changed"]')).toHaveCount(2);
  await expect(revs.first().getByTestId('caption-diff')).toContainText(`− 00:01.010 → 00:02.000  ${HELLO}`);
  await revs.nth(1).getByRole('button', { name: 'Bring back' }).click();
  const confirm = page.getByRole('dialog', { name: 'Bring back revision 1?' });
  await confirm.getByRole('button', { name: 'Bring back' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Revision 1 brought back' })).toBeVisible();
  await expect(editor.getByRole('heading', { name: 'English · revision 3' })).toBeVisible();
  await expect(editor.getByLabel('Cue 1 text')).toHaveValue(HELLO);
  expect((await english()).revision).toBe(3);

  // Unsaved edits are not dropped without a word.
  await editor.getByLabel('Cue 1 text').fill('Not kept');
  await editor.getByRole('button', { name: 'Tracks' }).click();
  await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave' }).click();
  await expect(panel.getByTestId('caption-track')).toHaveCount(2);
  expect((await english()).revision).toBe(3);
});

test('a client pins a note to the cue on screen and proposes a wording; staff accept it in one click and every player shows the new words', async ({ page, server }) => {
  // On top of the first test's setting up (beforeEach), when this one runs alone.
  test.setTimeout(test.info().timeout + 60_000);
  const staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const v2 = (await versions(staff)).find((v) => v.number === 2)!;
  // A track of its own (removed at the end), so the other tests' tracks and words stay as they are.
  const up = await uploadCaption(staff, fixture.mediaId, v2.id, srt([[1010, 2000, 'Guten Tag']]), { language: 'de', label: 'Deutsch' });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  try {
    await signInClient(page, fixture.client);
    await page.getByRole('button', { name: `Open ${TITLE}` }).click();
    const dialog = page.getByRole('dialog', { name: TITLE });
    await dialog.getByRole('tab', { name: 'Timeline' }).click();
    await dialog.getByTestId('captions-menu').selectOption({ label: 'Deutsch' });
    const player = dialog.getByTestId('portal-video');
    // No cue on screen: nothing to pin.
    await pauseAt(player, 0.5);
    await expect(dialog.getByTestId('cue-pin')).toHaveCount(0);
    await pauseAt(player, 1.5);
    const pin = dialog.getByTestId('cue-pin');
    await expect(pin).toContainText('“Guten Tag”');
    await pin.getByRole('switch', { name: /Pin to the caption \(Deutsch\)/ }).click();
    await pin.getByLabel('Propose a wording (optional)').fill('Guten Morgen');
    await dialog.getByLabel('Note', { exact: true }).fill('It is morning in this scene');
    await dialog.getByRole('button', { name: 'Add Note' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Timeline note added successfully' })).toBeVisible();
    const row = dialog.getByTestId('timeline-list').getByRole('listitem').filter({ hasText: 'It is morning in this scene' });
    await expect(row.getByTestId('note-cue')).toHaveText('Caption (Deutsch): “Guten Tag”Proposed: “Guten Morgen”');
    // The form is clear for the next note.
    await expect(dialog.getByRole('switch', { name: /Pin to the caption/ })).not.toBeChecked();

    // Off the portal first: with its cookie gone, its next request would send it to /client/login mid-way through the next goto.
    await page.goto('about:blank');
    await page.context().clearCookies();
    await signInAs(page, ADMIN.username, ADMIN.password, `/admin/media?item=${fixture.mediaId}`);
    const admin = page.getByRole('dialog', { name: TITLE });
    const note = admin.getByTestId('timeline-notes').getByRole('listitem').filter({ hasText: 'It is morning in this scene' });
    await note.getByRole('button', { name: 'Accept wording' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Wording accepted into Deutsch (revision 2)' })).toBeVisible();
    await expect(note.getByTestId('note-cue')).toContainText('Accepted (revision 2)');
    await expect(note.getByRole('button', { name: 'Accept wording' })).toHaveCount(0);
    // The dialog's player reads the track again: the cue on screen is the accepted wording.
    const adminPlayer = admin.getByTestId('detail-video');
    await admin.getByTestId('captions-menu').selectOption({ label: 'Deutsch' });
    await pauseAt(adminPlayer, 1.5);
    await expect.poll(() => activeCue(adminPlayer)).toBe('Guten Morgen');
  } finally {
    expect((await staff.json('DELETE', `/api/media/${fixture.mediaId}/captions/${up.body.track.id}`)).status).toBe(200);
  }
});
