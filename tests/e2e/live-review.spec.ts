// Live review sessions in the browser (issue 41), three people in three browser contexts: staff
// present from the admin dialog, a client follows in the portal, a guest on a comment link
// follows on the share page. The footage carries its frame number in its picture
// (tests/helpers/frame-fixture.ts), so "the same frame" is read from each screen's picture, and
// the time from the presenter's picture moving to a follower's is measured on the pages.
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { test, expect, ADMIN, oncePerServer } from './fixtures.ts';
import { islandsReady, signInAs } from './admin-helpers.ts';
import { createClientWithPortalLogin, type ClientLogin } from '../helpers/portal-fixtures.ts';
import { staffSession } from '../helpers/http.ts';
import type { TestServer } from '../helpers/server.ts';
import { BITS, readShownFrame, type FrameSourceSpec } from '../helpers/frame-fixture.ts';
import { copyAsNewVersion, signInClient, uploadNumbered } from './review-helpers.ts';

// MPEG-4 Part 2, which browsers do not play: converted (not remuxed), so a link plays the item's
// own proxies and needs no preview of its own (a version added here by copying files works there too).
const SOURCE: FrameSourceSpec = { rate: '25', seconds: 6, video: 'mpeg4', audio: null, container: 'mp4', size: '320x176' };
/**
 * How soon a follower's picture must show the presenter's frame in this test. The product's
 * target is 500 ms (issue 41), measured by bench/live.mjs; three Chromium pages on two busy
 * cores take longer now and then (632 ms seen in a whole run), and a test must hold there
 * (issue 40). 2 s still fails a follower that moves only on the 500 ms drift correction's
 * later rounds or on a reload, not on the presenter's message.
 */
const FOLLOW_MS = 2_000;

const fixture: { mediaId: number; client: ClientLogin; linkId: number; linkPath: string } = { mediaId: 0, client: null!, linkId: 0, linkPath: '' };

const setUp = oncePerServer(async (server) => {
  const staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
  fixture.client = await createClientWithPortalLogin(server, 'Live Review Co');
  fixture.mediaId = await uploadNumbered(server, SOURCE, 'Numbered Cut', { clientId: String(fixture.client.clientId) });
  const link = await staff.json('POST', '/api/share-links', { name: 'Agency', mediaIds: [fixture.mediaId], allowComment: true });
  expect(link.status, JSON.stringify(link.body)).toBe(201);
  fixture.linkId = link.body.id;
  fixture.linkPath = new URL(link.body.url).pathname;
});

/** Records, on the page, each moment its video settles on a frame (seeked or paused), with the page clock. */
async function recordFrames(target: Page | BrowserContext) {
  await target.addInitScript(() => {
    const w = window as unknown as { __frames: { t: number; s: number }[] };
    w.__frames = [];
    const note = (e: Event) => {
      if (e.target instanceof HTMLVideoElement) w.__frames.push({ t: Date.now(), s: e.target.currentTime });
    };
    document.addEventListener('seeked', note, true);
    document.addEventListener('pause', note, true);
  });
}

/** When the page's video first stood on frame `k` after `since` (page clock; all contexts share the machine's). */
const settledOn = (page: Page, k: number, since: number) =>
  page.evaluate(([k, since]) => (window as unknown as { __frames: { t: number; s: number }[] }).__frames.find((f) => f.t >= since && Math.floor(f.s * 25 + 0.05) === k)?.t ?? null, [k, since] as const);

const shownFrame = (page: Page, selector: string) => page.evaluate(readShownFrame, { selector, bits: BITS });

async function expectFrame(page: Page, selector: string, k: number, timeout = 10_000) {
  await expect.poll(() => shownFrame(page, selector), { message: `${selector} shows frame ${k}`, timeout }).toBe(k);
}

interface People {
  presenter: Page;
  client: Page;
  guest: Page;
  contexts: BrowserContext[];
}

const ADMIN_VIDEO = '[data-testid="detail-video"]';
const PORTAL_VIDEO = '[data-testid="portal-video"]';
const SHARE_VIDEO = '[data-testid="share-video"]';

async function videoReady(page: Page, selector: string) {
  await expect.poll(() => page.evaluate((s) => document.querySelector<HTMLVideoElement>(s)?.readyState ?? 0, selector), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
}

/** Staff start a session from the item's dialog; the client joins from the portal's banner and the guest from the share page. */
async function startSession(page: Page, server: TestServer, browser: Browser, withGuest = true): Promise<People> {
  await recordFrames(page);
  await signInAs(page, ADMIN.username, ADMIN.password, `/admin/media?item=${fixture.mediaId}`);
  await islandsReady(page);
  await expect(page.locator('html')).toHaveAttribute('data-live', 'open');
  const dialog = page.getByRole('dialog', { name: 'Numbered Cut' });
  await videoReady(page, ADMIN_VIDEO);
  await dialog.getByTestId('player-area').first().focus();
  await page.keyboard.press('k');
  await dialog.getByRole('button', { name: 'Review live' }).click();
  await expect(dialog.getByTestId('live-status')).toHaveText('Live review: you are presenting');

  const clientContext = await browser.newContext();
  await recordFrames(clientContext);
  const client = await clientContext.newPage();
  await signInClient(client, fixture.client);
  await client.getByTestId('portal-live-banner').getByRole('button', { name: 'Join live review' }).click();
  const portalDialog = client.getByRole('dialog', { name: 'Numbered Cut' });
  await expect(portalDialog.getByTestId('live-status')).toHaveText(/Live review: following/);
  await videoReady(client, PORTAL_VIDEO);

  const contexts = [clientContext];
  let guest: Page = null!;
  if (withGuest) {
    const guestContext = await browser.newContext();
    await recordFrames(guestContext);
    guest = await guestContext.newPage();
    await guest.goto(fixture.linkPath);
    await islandsReady(guest);
    await guest.getByRole('button', { name: 'Join live review' }).click();
    await expect(guest.getByTestId('live-status')).toHaveText(/Live review: following/);
    await videoReady(guest, SHARE_VIDEO);
    contexts.push(guestContext);
  }
  // Everyone is in the presenter's list.
  await expect(dialog.getByTestId('live-participant')).toHaveCount(withGuest ? 3 : 2);
  return { presenter: page, client, guest, contexts };
}

/** The presenter's `.` presses (focus in the player area). */
async function step(page: Page, area: Locator, times: number) {
  await area.focus();
  for (let i = 0; i < times; i++) await page.keyboard.press('.');
}

/** The presenter's picture lands on `k`; each follower's shows `k` too, and it got there within FOLLOW_MS of the presenter. */
async function everyoneOn(p: People, k: number, since: number, followers: [Page, string][]) {
  await expectFrame(p.presenter, ADMIN_VIDEO, k);
  const t0 = await settledOn(p.presenter, k, since);
  expect(t0, 'the presenter settled on the frame').not.toBeNull();
  for (const [page, selector] of followers) {
    await expectFrame(page, selector, k);
    const t1 = await settledOn(page, k, since);
    expect(t1, `${selector} settled on frame ${k}`).not.toBeNull();
    expect(t1! - t0!, `${selector} followed frame ${k} within ${FOLLOW_MS} ms`).toBeLessThan(FOLLOW_MS);
  }
}

test('three people: steps and seeks mirrored frame-exact, break away and follow again, hand over, a drawing and a note for all, the summary kept', async ({ page, server, browser }) => {
  test.setTimeout(240_000);
  await setUp({ server });
  const p = await startSession(page, server, browser);
  try {
    const area = page.getByRole('dialog', { name: 'Numbered Cut' }).getByTestId('player-area').first();
    const all: [Page, string][] = [
      [p.client, PORTAL_VIDEO],
      [p.guest, SHARE_VIDEO],
    ];
    // Frame steps, then a seek to 3 s (frame 75), then a step back.
    let since = Date.now();
    await step(page, area, 7);
    await everyoneOn(p, 7, since, all);
    since = Date.now();
    await page.evaluate((sel) => {
      const v = document.querySelector<HTMLVideoElement>(sel)!;
      v.currentTime = 3;
    }, ADMIN_VIDEO);
    await everyoneOn(p, 75, since, all);
    since = Date.now();
    await area.focus();
    await page.keyboard.press(',');
    await everyoneOn(p, 74, since, all);

    // The client breaks away: the presenter's next steps leave it where it is; Follow again brings it back.
    const portal = p.client.getByRole('dialog', { name: 'Numbered Cut' });
    await portal.getByRole('button', { name: 'Break away' }).click();
    await expect(portal.getByTestId('live-status')).toHaveText('Live review: you are on your own');
    await expect(page.getByTestId('live-participant').filter({ hasText: fixture.client.name })).toContainText('on their own');
    since = Date.now();
    await step(page, area, 3);
    await everyoneOn(p, 77, since, [[p.guest, SHARE_VIDEO]]);
    expect(await shownFrame(p.client, PORTAL_VIDEO)).toBe(74);
    await portal.getByRole('button', { name: 'Follow again' }).click();
    await expectFrame(p.client, PORTAL_VIDEO, 77);

    // A drawing the guest makes shows on the others' pictures as it is drawn.
    const tools = p.guest.getByTestId('drawing-tools');
    await tools.getByRole('button', { name: 'Draw', exact: true }).click();
    const box = await p.guest.locator(SHARE_VIDEO).evaluate((el: HTMLVideoElement) => {
      el.scrollIntoView({ block: 'center' });
      const r = el.getBoundingClientRect();
      const s = Math.min(r.width / el.videoWidth, r.height / el.videoHeight);
      return { x: r.left + (r.width - el.videoWidth * s) / 2, y: r.top + (r.height - el.videoHeight * s) / 2, width: el.videoWidth * s, height: el.videoHeight * s };
    });
    await p.guest.mouse.move(box.x + 0.2 * box.width, box.y + 0.3 * box.height);
    await p.guest.mouse.down();
    for (let i = 1; i <= 5; i++) await p.guest.mouse.move(box.x + (0.2 + 0.1 * i) * box.width, box.y + (0.3 + 0.06 * i) * box.height);
    await p.guest.mouse.up();
    for (const [viewer, scope] of [
      [page, page.getByRole('dialog', { name: 'Numbered Cut' })],
      [p.client, portal],
    ] as const) {
      await expect(scope.locator('[data-testid="drawing-layer"] g[data-note^="live-draw-"] g[data-kind="arrow"]'), `${viewer === page ? 'presenter' : 'client'} sees the guest's arrow`).toHaveCount(1);
    }

    // A note the presenter writes lands for the client and the guest, stamped with the shared frame (77 = 3.080 s).
    const form = page.getByTestId('staff-note-form');
    await expect(form.getByTestId('formatted-time')).toHaveText('00:03.02');
    await form.getByRole('textbox', { name: 'Note' }).fill('Hold on this frame');
    await form.getByRole('button', { name: 'Add note' }).click();
    await expect(p.guest.getByRole('list', { name: /Timeline notes/ })).toContainText('Hold on this frame');
    await portal.getByRole('tab', { name: 'Timeline' }).click();
    await expect(portal).toContainText('Hold on this frame');
    const stored = await server.sql.execute({ sql: "SELECT timestamp_ms FROM timeline_notes WHERE note_text = 'Hold on this frame'" });
    expect(Math.floor((Number(stored.rows[0]!.timestamp_ms) * 25) / 1000 + 0.05)).toBe(77);

    // The presenter hands control to the client; the client's steps now move everyone.
    await page.getByRole('button', { name: `Give control to ${fixture.client.name}` }).click();
    await expect(portal.getByTestId('live-status')).toHaveText('Live review: you are presenting');
    await expect(page.getByRole('dialog', { name: 'Numbered Cut' }).getByTestId('live-status')).toHaveText(/Live review: following/);
    const clientArea = portal.getByTestId('player-area').first();
    await step(p.client, clientArea, 2);
    await expectFrame(p.client, PORTAL_VIDEO, 79);
    await expectFrame(page, ADMIN_VIDEO, 79);
    await expectFrame(p.guest, SHARE_VIDEO, 79);

    // The staff member who started it ends it: everyone sees the summary, and it is kept on the item.
    await page.getByRole('button', { name: 'End live review' }).click();
    for (const viewer of [page, p.client, p.guest]) await expect(viewer.getByTestId('live-summary')).toContainText(/3 people .* 1 note/);
    const kept = await (await staffSession(server.url, ADMIN.username, ADMIN.password)).json('GET', `/api/media/${fixture.mediaId}/live`);
    expect(kept.body[0].summary).toMatchObject({ notes: 1, reason: 'ended' });
    expect(kept.body[0].summary.participants.map((x: { kind: string }) => x.kind).sort()).toEqual(['client', 'guest', 'staff']);
  } finally {
    for (const c of p.contexts) await c.close();
  }
});

test('a version switch and compare mode by the presenter are followed by the client; the guest (whose link shows the current version only) is told', async ({ page, server, browser }) => {
  test.setTimeout(180_000);
  await setUp({ server });
  // A second version: a copy of the first one's files, made current.
  const v1 = (await server.sql.execute({ sql: 'SELECT * FROM media_versions WHERE media_id = ? ORDER BY number', args: [fixture.mediaId] })).rows;
  if (v1.length === 1) await copyAsNewVersion(server, fixture.mediaId);
  const p = await startSession(page, server, browser);
  try {
    const dialog = page.getByRole('dialog', { name: 'Numbered Cut' });
    const portal = p.client.getByRole('dialog', { name: 'Numbered Cut' });
    await expect(portal.getByRole('combobox', { name: 'Version' })).toHaveValue(String(v1.length === 1 ? (await server.sql.execute({ sql: 'SELECT id FROM media_versions WHERE media_id = ? AND number = 2', args: [fixture.mediaId] })).rows[0]!.id : v1[1]!.id));
    const first = String(v1[0]!.id);
    await dialog.getByRole('combobox', { name: 'Version' }).selectOption(first);
    await expect(portal.getByRole('combobox', { name: 'Version' })).toHaveValue(first);
    await expect(p.guest.getByText('The presenter is showing another version')).toBeVisible();
    await videoReady(page, ADMIN_VIDEO);
    const since = Date.now();
    await step(page, dialog.getByTestId('player-area').first(), 5);
    await expectFrame(page, ADMIN_VIDEO, 5);
    await expectFrame(p.client, PORTAL_VIDEO, 5);
    expect(await settledOn(p.client, 5, since)).not.toBeNull();

    // Compare mode: the presenter opens it and picks Wipe; the client's opens on the same pair
    // in the same mode, and closes with the presenter's.
    await dialog.getByTestId('compare-open').click();
    const presenterCompare = page.getByRole('dialog', { name: 'Compare versions: Numbered Cut' });
    await presenterCompare.getByRole('button', { name: 'Wipe' }).click();
    const clientCompare = p.client.getByRole('dialog', { name: 'Compare versions: Numbered Cut' });
    await expect(clientCompare.getByTestId('compare-view')).toHaveAttribute('data-mode', 'wipe');
    for (const side of ['Left', 'Right']) {
      await expect(clientCompare.getByRole('combobox', { name: side })).toHaveValue(await presenterCompare.getByRole('combobox', { name: side }).inputValue());
    }
    await page.keyboard.press('Escape');
    await expect(presenterCompare).toHaveCount(0);
    await expect(clientCompare).toHaveCount(0);
  } finally {
    await page.getByRole('button', { name: 'End live review' }).click();
    for (const c of p.contexts) await c.close();
  }
});

test('the staff member who started it takes control back from a client who presents', async ({ page, server, browser }) => {
  test.setTimeout(180_000);
  await setUp({ server });
  const p = await startSession(page, server, browser, false);
  try {
    const dialog = page.getByRole('dialog', { name: 'Numbered Cut' });
    const portal = p.client.getByRole('dialog', { name: 'Numbered Cut' });
    // Others see the client by the client's name, never the portal login.
    await expect(dialog.getByTestId('live-participants')).toContainText(fixture.client.name);
    await expect(dialog.getByTestId('live-participants')).not.toContainText(fixture.client.username);
    await expect(dialog.getByRole('button', { name: 'Take control back' })).toHaveCount(0);
    await page.getByRole('button', { name: `Give control to ${fixture.client.name}` }).click();
    await expect(portal.getByTestId('live-status')).toHaveText('Live review: you are presenting');
    // The client, presenting, is offered no such button: only the starter is.
    await expect(portal.getByRole('button', { name: 'Take control back' })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Take control back' }).click();
    await expect(dialog.getByTestId('live-status')).toHaveText('Live review: you are presenting');
    await expect(portal.getByTestId('live-status')).toHaveText(/Live review: following/);
    await expect(dialog.getByRole('button', { name: 'Take control back' })).toHaveCount(0);
    // The starter's steps move the client again.
    await videoReady(page, ADMIN_VIDEO);
    const start = (await shownFrame(page, ADMIN_VIDEO)) ?? 0;
    await step(page, dialog.getByTestId('player-area').first(), 2);
    await expectFrame(page, ADMIN_VIDEO, start + 2);
    await expectFrame(p.client, PORTAL_VIDEO, start + 2);
  } finally {
    await page.getByRole('button', { name: 'End live review' }).click().catch(() => undefined);
    for (const c of p.contexts) await c.close();
  }
});

test('revoking the link ends the guest’s session within a second; a client taken off the item is dropped', async ({ page, server, browser }) => {
  test.setTimeout(180_000);
  await setUp({ server });
  const p = await startSession(page, server, browser);
  try {
    const staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
    const t0 = Date.now();
    expect((await staff.json('DELETE', `/api/share-links/${fixture.linkId}`)).status).toBe(200);
    await expect(p.guest.getByText('This link is no longer available')).toBeVisible({ timeout: 1000 });
    expect(Date.now() - t0).toBeLessThan(1500);
    await expect(page.getByTestId('live-participant')).toHaveCount(2);

    expect((await staff.json('DELETE', `/api/media/${fixture.mediaId}/clients/${fixture.client.clientId}`)).status).toBe(200);
    await expect(p.client.getByText('You left the live review')).toBeVisible({ timeout: 2000 });
    await expect(p.client.getByTestId('live-panel')).toHaveCount(0);
    await expect(page.getByTestId('live-participant')).toHaveCount(1);
  } finally {
    await page.getByRole('button', { name: 'End live review' }).click().catch(() => undefined);
    for (const c of p.contexts) await c.close();
  }
});
