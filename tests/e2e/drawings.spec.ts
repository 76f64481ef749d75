// Drawing on the frame (issue 29, the UI): in the portal a paused frame gets an arrow dragged
// across the video's picture (its letterbox left out), undo and redo work from the keyboard and
// the buttons, the note is stored with the arrow in 0..1 picture coordinates, and after a reload
// a click on the note shows the arrow again at the same place over the picture; the note list
// says "with a drawing" to screen readers; axe clean in both themes with the tools open. The clip
// is portrait (3:4) in a wide player, so the letterbox matters.
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { test, expect, ADMIN } from './fixtures.ts';
import { islandsReady, signInAs, tempDir } from './admin-helpers.ts';
import { seriousViolations } from './public-helpers.ts';
import { createClientWithPortalLogin } from '../helpers/portal-fixtures.ts';
import { pauseAt, signInClient, uploadClip } from './review-helpers.ts';
import type { TestServer } from '../helpers/server.ts';

const TOLERANCE = 0.02;

/** The portrait (3:4) clip, so the player letterboxes it left and right. */
const uploadPortraitClip = (page: Page, server: TestServer, title: string, clientId: number) => uploadClip(page, server, title, clientId, '240x320');

/**
 * The picture's box on the page, worked out here from the element's box and the picture's own
 * size (object-fit: contain), not read from the layer under test.
 */
async function pictureBox(media: Locator) {
  // The tools sit under the picture: bring it back into view (the mouse draws on the screen).
  await media.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  return media.evaluate((el: HTMLVideoElement | HTMLImageElement) => {
    const r = el.getBoundingClientRect();
    const [w, h] = el instanceof HTMLVideoElement ? [el.videoWidth, el.videoHeight] : [el.naturalWidth, el.naturalHeight];
    const s = Math.min(r.width / w, r.height / h);
    return { x: r.left + (r.width - w * s) / 2, y: r.top + (r.height - h * s) / 2, width: w * s, height: h * s, elWidth: r.width, elHeight: r.height };
  });
}

/** Drags with the mouse between two points given as shares of the picture box. */
async function drag(page: Page, box: { x: number; y: number; width: number; height: number }, from: [number, number], to: [number, number]) {
  await page.mouse.move(box.x + from[0] * box.width, box.y + from[1] * box.height);
  await page.mouse.down();
  for (let i = 1; i <= 5; i++) {
    const f = i / 5;
    await page.mouse.move(box.x + (from[0] + (to[0] - from[0]) * f) * box.width, box.y + (from[1] + (to[1] - from[1]) * f) * box.height);
  }
  await page.mouse.up();
}

/** The arrows' lines of the layer, their ends in page coordinates. */
async function arrowEnds(layer: Locator) {
  return layer.evaluate((svg: SVGSVGElement) => {
    const r = svg.getBoundingClientRect();
    return [...svg.querySelectorAll('g[data-kind="arrow"] line')].map((l) => {
      const a = (n: string) => Number(l.getAttribute(n));
      return { x1: r.left + a('x1'), y1: r.top + a('y1'), x2: r.left + a('x2'), y2: r.top + a('y2') };
    });
  });
}

test('portal: Draw pauses, an arrow dragged on the picture is sent with the note in picture coordinates, undo/redo, and it shows again at the same place after reload', async ({ page, server }) => {
  test.setTimeout(120_000);
  const login = await createClientWithPortalLogin(server, 'Drawing Co');
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
  const mediaId = await uploadPortraitClip(page, server, 'Draw Cut', login.clientId);
  await page.context().clearCookies();

  await signInClient(page, login);
  await page.getByRole('button', { name: 'Open Draw Cut' }).click();
  const dialog = page.getByRole('dialog', { name: 'Draw Cut' });
  await dialog.getByRole('tab', { name: 'Timeline' }).click();
  const player = dialog.getByTestId('portal-video');
  await pauseAt(player, 2);
  await player.evaluate((v: HTMLVideoElement) => v.play().catch(() => undefined));

  const tools = dialog.getByTestId('drawing-tools');
  const draw = tools.getByRole('button', { name: 'Draw', exact: true });
  await expect(draw).toHaveAttribute('aria-pressed', 'false');
  await draw.click();
  await expect(draw).toHaveAttribute('aria-pressed', 'true');
  // Drawing pauses the video, and the layer takes the pointer only now.
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  await pauseAt(player, 2);
  const layer = dialog.getByTestId('drawing-layer');
  await expect(layer).toHaveAttribute('data-drawing', 'true');

  // Tools and colours are buttons with names and pressed states, reachable by keyboard.
  const arrow = tools.getByRole('button', { name: 'Arrow', exact: true });
  await arrow.focus();
  await page.keyboard.press('Enter');
  await expect(arrow).toHaveAttribute('aria-pressed', 'true');
  const blue = tools.getByRole('button', { name: 'Blue', exact: true });
  await blue.focus();
  await page.keyboard.press('Space');
  await expect(blue).toHaveAttribute('aria-pressed', 'true');
  await expect(tools.getByRole('button', { name: 'Red', exact: true })).toHaveAttribute('aria-pressed', 'false');

  const box = await pictureBox(player);
  // The portrait clip is letterboxed: the picture is much narrower than the element.
  expect(box.width).toBeLessThan(box.elWidth - 100);
  await drag(page, box, [0.25, 0.25], [0.75, 0.75]);
  await expect(dialog.getByTestId('drawing-summary')).toHaveText('Note with a drawing: 1 arrow');

  // A rectangle, then undo (Ctrl+Z), redo (Ctrl+Shift+Z), and undo again with the button.
  await tools.getByRole('button', { name: 'Rectangle', exact: true }).click();
  await drag(page, box, [0.1, 0.6], [0.3, 0.9]);
  await expect(dialog.getByTestId('drawing-summary')).toHaveText('Note with a drawing: 1 arrow, 1 rectangle');
  await page.keyboard.press('Control+z');
  await expect(dialog.getByTestId('drawing-summary')).toHaveText('Note with a drawing: 1 arrow');
  await page.keyboard.press('Control+Shift+z');
  await expect(dialog.getByTestId('drawing-summary')).toHaveText('Note with a drawing: 1 arrow, 1 rectangle');
  await tools.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(dialog.getByTestId('drawing-summary')).toHaveText('Note with a drawing: 1 arrow');
  await expect(layer.locator('g[data-kind="rect"]')).toHaveCount(0);

  await dialog.getByRole('textbox', { name: 'Note' }).fill('Look at this corner');
  await dialog.getByRole('button', { name: 'Add Note' }).click();
  const list = dialog.getByTestId('timeline-list');
  await expect(list).toContainText('Look at this corner');
  // Sent: the drawing is cleared and the tools closed.
  await expect(draw).toHaveAttribute('aria-pressed', 'false');
  await expect(dialog.getByTestId('drawing-summary')).toHaveText('');

  const row = (await server.sql.execute({ sql: 'SELECT shapes, timestamp_ms FROM timeline_notes WHERE media_id = ?', args: [mediaId] })).rows[0]!;
  expect(Number(row.timestamp_ms)).toBe(2000);
  const shapes = JSON.parse(String(row.shapes));
  expect(shapes).toHaveLength(1);
  expect(shapes[0]).toMatchObject({ kind: 'arrow', color: 'blue' });
  const [[x1, y1], [x2, y2]] = shapes[0].points;
  for (const [got, want] of [
    [x1, 0.25],
    [y1, 0.25],
    [x2, 0.75],
    [y2, 0.75],
  ])
    expect(Math.abs(got - want)).toBeLessThan(TOLERANCE);

  // The list shows a preview and says so in words.
  const item = list.getByRole('listitem').filter({ hasText: 'Look at this corner' });
  await expect(item.getByTestId('drawing-preview')).toBeVisible();
  await expect(item.getByRole('button').first()).toHaveAccessibleName(/with a drawing: 1 arrow/);

  // After a reload, away from the note's frame nothing is drawn; a click on the note shows it.
  await page.reload();
  await islandsReady(page);
  await page.getByRole('button', { name: 'Open Draw Cut' }).click();
  await dialog.getByRole('tab', { name: 'Timeline' }).click();
  await pauseAt(player, 0.5);
  await expect(layer.locator('g[data-kind="arrow"]')).toHaveCount(0);
  await expect(layer).not.toHaveAttribute('data-drawing', 'true');
  await expect(layer).toHaveCSS('pointer-events', 'none');
  await list.getByRole('listitem').filter({ hasText: 'Look at this corner' }).getByRole('button').first().click();
  await expect.poll(async () => Math.abs((await player.evaluate((v: HTMLVideoElement) => v.currentTime)) - 2)).toBeLessThan(0.04);
  await expect(layer.locator('g[data-kind="arrow"]')).toHaveCount(1);
  const again = await pictureBox(player);
  const [line] = await arrowEnds(layer);
  const rel = (x: number, y: number) => [(x - again.x) / again.width, (y - again.y) / again.height];
  const [a1, b1] = rel(line!.x1, line!.y1);
  const [a2, b2] = rel(line!.x2, line!.y2);
  for (const [got, want] of [
    [a1, 0.25],
    [b1, 0.25],
    [a2, 0.75],
    [b2, 0.75],
  ])
    expect(Math.abs(got! - want!)).toBeLessThan(TOLERANCE);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`${colorScheme}: the admin and portal dialogs with the drawing tools open and a drawing shown are axe clean`, async ({ page, server }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme });
    const login = await createClientWithPortalLogin(server, `Draw axe ${colorScheme}`);
    await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
    const title = `Draw axe ${colorScheme}`;
    const mediaId = await uploadPortraitClip(page, server, title, login.clientId);
    const res = await page.request.post(`/api/media/${mediaId}/timeline-notes`, {
      headers: { Origin: server.url },
      data: {
        text: 'Studio drawing',
        timestampMs: 1000,
        shapes: [
          {
            kind: 'ellipse',
            color: 'yellow',
            points: [
              [0.2, 0.2],
              [0.6, 0.5],
            ],
          },
        ],
      },
    });
    expect(res.status()).toBe(201);
    // The admin dialog with its tools open.
    await page.goto('/admin/media');
    await islandsReady(page);
    await page.getByRole('button', { name: `Open ${title}` }).click();
    const detail = page.getByRole('dialog', { name: title });
    await detail.getByRole('button', { name: 'Draw', exact: true }).click();
    await expect(detail.getByRole('button', { name: 'Ellipse', exact: true })).toBeVisible();
    await expect(detail.getByTestId('timeline-notes').getByTestId('drawing-preview')).toHaveCount(1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().clearCookies();

    await signInClient(page, login);
    await page.getByRole('button', { name: `Open ${title}` }).click();
    const dialog = page.getByRole('dialog', { name: title });
    await dialog.getByRole('tab', { name: 'Timeline' }).click();
    await pauseAt(dialog.getByTestId('portal-video'), 1);
    await expect(dialog.getByTestId('drawing-layer').locator('g[data-kind="ellipse"]')).toHaveCount(1);
    await dialog.getByRole('button', { name: 'Draw', exact: true }).click();
    await expect(dialog.getByRole('button', { name: 'Freehand', exact: true })).toBeVisible();
    // Visible focus on a tool reached with Tab.
    await dialog.getByRole('button', { name: 'Draw', exact: true }).focus();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Freehand', exact: true })).toBeFocused();
    expect(await dialog.getByRole('button', { name: 'Freehand', exact: true }).evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
    expect(await seriousViolations(page)).toEqual([]);
  });
}

/** Signs in as admin, uploads a plain still of `size` as `title`, and opens it in the media dialog with the picture loaded. */
async function openStill(page: Page, server: TestServer, title: string, size: { width: number; height: number }) {
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
  const dir = tempDir();
  let mediaId: number;
  try {
    const file = path.join(dir, 'still.jpg');
    await sharp({ create: { ...size, channels: 3, background: { r: 40, g: 90, b: 160 } } }).jpeg().toFile(file);
    const res = await page.request.post('/api/media', {
      headers: { Origin: server.url },
      multipart: { title, isFeatured: 'false', showInPortfolio: 'false', file: { name: 'still.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(file) } },
    });
    expect(res.status()).toBe(201);
    mediaId = (await res.json()).id;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  await page.goto('/admin/media');
  await islandsReady(page);
  await page.getByRole('button', { name: `Open ${title}` }).click();
  const dialog = page.getByRole('dialog', { name: title });
  const image = dialog.getByTestId('detail-image');
  await expect.poll(() => image.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
  return { mediaId, dialog, image, form: dialog.getByTestId('staff-note-form') };
}

test('admin: a rectangle drawn on an image (letterboxed) is sent with a staff note at 0 and drawn over the picture at the same place', async ({ page, server }) => {
  test.setTimeout(120_000);
  // Portrait, so the picture is narrower than the dialog's image box.
  const { mediaId, dialog, image, form } = await openStill(page, server, 'Drawn Still', { width: 300, height: 400 });
  // An image has no time field: its notes are at 0.
  await expect(form.getByLabel('Time (seconds)')).toHaveCount(0);
  await form.getByRole('button', { name: 'Draw', exact: true }).click();
  await form.getByRole('button', { name: 'Rectangle', exact: true }).click();
  await form.getByRole('button', { name: 'Green', exact: true }).click();
  const box = await pictureBox(image);
  expect(box.width).toBeLessThan(box.elWidth - 50);
  await drag(page, box, [0.2, 0.3], [0.6, 0.7]);
  await expect(form.getByTestId('drawing-summary')).toHaveText('Note with a drawing: 1 rectangle');
  await form.getByRole('textbox', { name: 'Note' }).fill('Crop here');
  await form.getByRole('button', { name: 'Add note', exact: true }).click();
  await expect(dialog.getByTestId('timeline-notes')).toContainText('Crop here');

  const row = (await server.sql.execute({ sql: 'SELECT shapes, timestamp_ms FROM timeline_notes WHERE media_id = ?', args: [mediaId] })).rows[0]!;
  expect(Number(row.timestamp_ms)).toBe(0);
  const [shape] = JSON.parse(String(row.shapes));
  expect(shape).toMatchObject({ kind: 'rect', color: 'green' });
  const [[x1, y1], [x2, y2]] = shape.points;
  for (const [got, want] of [[x1, 0.2], [y1, 0.3], [x2, 0.6], [y2, 0.7]]) expect(Math.abs(got - want)).toBeLessThan(TOLERANCE);

  // Drawn over the image from the stored note (the draft is gone), where it was drawn.
  const layer = dialog.getByTestId('drawing-layer');
  await expect(layer.locator('g[data-note="draft"]')).toHaveCount(0);
  const rect = layer.locator('g[data-kind="rect"] rect');
  await expect(rect).toHaveCount(1);
  const again = await pictureBox(image);
  const placed = await rect.evaluate((r: SVGRectElement) => {
    const s = r.ownerSVGElement!.getBoundingClientRect();
    const a = (n: string) => Number(r.getAttribute(n));
    return { left: s.left + a('x'), top: s.top + a('y'), right: s.left + a('x') + a('width'), bottom: s.top + a('y') + a('height') };
  });
  expect(Math.abs((placed.left - again.x) / again.width - 0.2)).toBeLessThan(TOLERANCE);
  expect(Math.abs((placed.top - again.y) / again.height - 0.3)).toBeLessThan(TOLERANCE);
  expect(Math.abs((placed.right - again.x) / again.width - 0.6)).toBeLessThan(TOLERANCE);
  expect(Math.abs((placed.bottom - again.y) / again.height - 0.7)).toBeLessThan(TOLERANCE);
  await expect(dialog.getByTestId('timeline-notes').getByTestId('note-seek')).toHaveAccessibleName(/with a drawing: 1 rectangle/);
});

test('keyboard: with Draw on, the picture takes focus; arrow keys move a cursor, Enter starts and ends a shape, Escape drops one without closing the dialog', async ({ page, server }) => {
  test.setTimeout(120_000);
  const { mediaId, dialog, form } = await openStill(page, server, 'Keyed Still', { width: 640, height: 360 });
  const layer = dialog.getByTestId('drawing-layer');
  // Off: the layer is hidden from assistive technology and out of the tab order.
  await expect(layer).toHaveAttribute('aria-hidden', 'true');
  await expect(layer).not.toHaveAttribute('tabindex');
  await form.getByRole('button', { name: 'Draw', exact: true }).click();
  await form.getByRole('button', { name: 'Rectangle', exact: true }).click();
  const area = dialog.getByRole('application', { name: /^Drawing area/ });
  await expect(area).toHaveAttribute('tabindex', '0');
  await area.focus();
  await expect(dialog.getByTestId('drawing-cursor')).toHaveCount(1);
  // From the centre: Enter, two big steps right and five small ones down, Enter.
  await page.keyboard.press('Enter');
  for (let i = 0; i < 2; i++) await page.keyboard.press('Shift+ArrowRight');
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown');
  await expect(area).toHaveAccessibleName(/shape started at 70% across, 55% down/);
  await page.keyboard.press('Enter');
  await expect(form.getByTestId('drawing-summary')).toHaveText('Note with a drawing: 1 rectangle');
  // A shape begun and dropped with Escape: nothing added, and the dialog stays open.
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await expect(layer.locator('g[data-note="draft"] g[data-kind]')).toHaveCount(1);
  await expect(form.getByTestId('drawing-summary')).toHaveText('Note with a drawing: 1 rectangle');
  // A freehand line follows the cursor: ten steps left from where it stands (70 %, 54 %).
  await form.getByRole('button', { name: 'Freehand', exact: true }).click();
  await area.focus();
  await page.keyboard.press('Space');
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Space');
  await expect(form.getByTestId('drawing-summary')).toHaveText('Note with a drawing: 1 rectangle, 1 freehand line');
  await form.getByRole('textbox', { name: 'Note' }).fill('Drawn from the keyboard');
  await form.getByRole('button', { name: 'Add note', exact: true }).click();
  await expect(dialog.getByTestId('timeline-notes')).toContainText('Drawn from the keyboard');

  const row = (await server.sql.execute({ sql: 'SELECT shapes FROM timeline_notes WHERE media_id = ?', args: [mediaId] })).rows[0]!;
  const [rect, line] = JSON.parse(String(row.shapes));
  expect(rect).toMatchObject({ kind: 'rect', points: [[0.5, 0.5], [0.7, 0.55]] });
  expect(line.kind).toBe('freehand');
  expect(line.points[0]).toEqual([0.7, 0.54]);
  expect(line.points.at(-1)).toEqual([0.6, 0.54]);
  expect(line.points.length).toBe(11);
});

// Issue 40: the cursor stops at the picture's edges, so a shape drawn from the keyboard into a
// corner is stored at exactly 0 and 1. Seven big steps from the centre would be 1.2 unclamped,
// and thirteen back from there -0.1, so a cursor that is not held at the edge stores neither.
test('keyboard: the cursor stops at the edges of the picture, storing 0 and 1', async ({ page, server }) => {
  test.setTimeout(120_000);
  const { mediaId, dialog, form } = await openStill(page, server, 'Cornered Still', { width: 640, height: 360 });
  await form.getByRole('button', { name: 'Draw', exact: true }).click();
  await form.getByRole('button', { name: 'Arrow', exact: true }).click();
  const area = dialog.getByRole('application', { name: /^Drawing area/ });
  await area.focus();
  for (let i = 0; i < 7; i++) await page.keyboard.press('Shift+ArrowRight');
  for (let i = 0; i < 7; i++) await page.keyboard.press('Shift+ArrowDown');
  await expect(area).toHaveAccessibleName(/cursor at 100% across, 100% down/);
  await page.keyboard.press('Enter');
  for (let i = 0; i < 13; i++) await page.keyboard.press('Shift+ArrowLeft');
  for (let i = 0; i < 13; i++) await page.keyboard.press('Shift+ArrowUp');
  await expect(area).toHaveAccessibleName(/shape started at 0% across, 0% down/);
  await page.keyboard.press('Enter');
  await expect(form.getByTestId('drawing-summary')).toHaveText('Note with a drawing: 1 arrow');
  await form.getByRole('textbox', { name: 'Note' }).fill('Corner to corner');
  await form.getByRole('button', { name: 'Add note', exact: true }).click();
  await expect(dialog.getByTestId('timeline-notes')).toContainText('Corner to corner');
  const row = (await server.sql.execute({ sql: 'SELECT shapes FROM timeline_notes WHERE media_id = ?', args: [mediaId] })).rows[0]!;
  expect(JSON.parse(String(row.shapes))).toMatchObject([{ kind: 'arrow', points: [[1, 1], [0, 0]] }]);
});

test('share page: a visitor on a link allowing comments draws freehand on the video; a link without comments has no tools', async ({ page, server, browser }) => {
  test.setTimeout(120_000);
  const login = await createClientWithPortalLogin(server, 'Share Draw Co');
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
  const mediaId = await uploadPortraitClip(page, server, 'Shared Draw', login.clientId);
  const open = await page.request.post('/api/share-links', { headers: { Origin: server.url }, data: { name: 'Drawing link', mediaIds: [mediaId], allowComment: true } });
  const closed = await page.request.post('/api/share-links', { headers: { Origin: server.url }, data: { name: 'Look only', mediaIds: [mediaId] } });
  expect(open.status()).toBe(201);
  expect(closed.status()).toBe(201);
  const guest = await browser.newContext({ baseURL: server.url });
  try {
    const visitor = await guest.newPage();
    await visitor.goto((await closed.json()).url);
    await islandsReady(visitor);
    await expect(visitor.getByTestId('share-video')).toBeVisible();
    await expect(visitor.getByTestId('drawing-tools')).toHaveCount(0);

    await visitor.goto((await open.json()).url);
    await islandsReady(visitor);
    const share = visitor.getByTestId('share-item');
    const video = share.getByTestId('share-video');
    await pauseAt(video, 1);
    await share.getByRole('button', { name: 'Draw', exact: true }).click();
    await share.getByRole('button', { name: 'Freehand', exact: true }).click();
    expect(await seriousViolations(visitor)).toEqual([]);
    const box = await pictureBox(video);
    await drag(visitor, box, [0.3, 0.5], [0.7, 0.5]);
    await expect(share.getByTestId('drawing-summary')).toHaveText('Note with a drawing: 1 freehand line');
    await visitor.getByLabel('Your name').fill('Guest Grace');
    await share.getByRole('textbox', { name: 'Note', exact: true }).fill('Underline this');
    await share.getByRole('button', { name: 'Add note', exact: true }).click();
    await expect(share.getByRole('list', { name: /Timeline notes/ })).toContainText('Underline this');
    const row = (await server.sql.execute({ sql: "SELECT shapes FROM share_comments WHERE text = 'Underline this'", args: [] })).rows[0]!;
    const [shape] = JSON.parse(String(row.shapes));
    expect(shape).toMatchObject({ kind: 'freehand', color: 'red' });
    expect(shape.points.length).toBeGreaterThan(2);
    expect(Math.abs(shape.points[0][0] - 0.3)).toBeLessThan(TOLERANCE);
    expect(Math.abs(shape.points.at(-1)[0] - 0.7)).toBeLessThan(TOLERANCE);
    for (const [, y] of shape.points) expect(Math.abs(y - 0.5)).toBeLessThan(TOLERANCE);
    await expect(share.getByRole('list', { name: /Timeline notes/ })).toContainText('with a drawing: 1 freehand line');
    await expect(share.getByTestId('drawing-layer').locator('g[data-kind="freehand"]')).toHaveCount(1);
  } finally {
    await guest.close();
  }
});
