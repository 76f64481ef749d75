// One whole review round (issue 16), staff and client in two browser contexts: v1 goes to the
// client, who asks for changes with a note at a moment; staff reply, resolve it and upload v2
// through the resumable dialog; the client switches versions, approves v2; staff see
// "Approved" on the card and the dashboard count drops.
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect, ADMIN } from './fixtures.ts';
import { count, createStaffUser, insertMedia, islandsReady, makeVideo, signInAs, tempDir } from './admin-helpers.ts';
import { settled, seriousViolations } from './public-helpers.ts';
import { createClientWithPortalLogin } from '../helpers/portal-fixtures.ts';

const adminCard = (page: Page, title: string) => page.getByTestId('media-card').filter({ has: page.getByTestId('card-title').getByText(title, { exact: true }) });

async function signInClient(page: Page, username: string, password: string) {
  const res = await page.request.post('/api/client/login', { data: { username, password } });
  expect(res.status()).toBe(200);
  await page.goto('/client/dashboard');
  await islandsReady(page);
}

test('a review round: changes requested on v1 at a moment, staff reply and upload v2, the client approves v2', async ({ browser, server }) => {
  test.setTimeout(120_000);
  const dir = tempDir();
  const studio = await browser.newContext({ baseURL: server.url });
  const client = await browser.newContext({ baseURL: server.url });
  try {
    const login = await createClientWithPortalLogin(server, 'Agency');
    const staff = await studio.newPage();
    await signInAs(staff, ADMIN.username, ADMIN.password, '/admin/dashboard');
    const awaiting = staff.getByTestId('stat-awaiting-approval');
    await expect(awaiting).toHaveText('0');

    // v1, assigned to the client.
    const v1 = fs.readFileSync(makeVideo(dir, 'brand-v1.mp4', 4));
    const res = await staff.request.post('/api/media', {
      headers: { Origin: server.url },
      multipart: { title: 'Brand Film', clientId: String(login.clientId), isFeatured: 'false', showInPortfolio: 'false', file: { name: 'brand-v1.mp4', mimeType: 'video/mp4', buffer: v1 } },
    });
    expect(res.status()).toBe(201);
    await staff.reload();
    await expect(awaiting).toHaveText('1');

    // The client asks for changes with a note at 0:02.
    const portal = await client.newPage();
    await signInClient(portal, login.username, login.password);
    await portal.getByRole('button', { name: 'Open Brand Film' }).click();
    let dialog = portal.getByRole('dialog', { name: 'Brand Film' });
    const approval = dialog.getByTestId('client-approval');
    await expect(approval.getByTestId('approval-status')).toHaveText('In review');
    await dialog.getByRole('tab', { name: 'Timeline' }).click();
    await dialog.getByLabel('Timestamp (seconds)').fill('2');
    await dialog.getByRole('textbox', { name: 'Note', exact: true }).fill('Logo comes in too early');
    await dialog.getByRole('button', { name: 'Add Note' }).click();
    await expect(dialog.getByTestId('timeline-list')).toContainText('Logo comes in too early');
    await approval.getByRole('button', { name: 'Request changes' }).click();
    await approval.getByRole('button', { name: 'Send request' }).click();
    await expect(approval.getByRole('alert')).toHaveText('Please say what should change.');
    await approval.getByLabel('What should change?').fill('Move the logo to the end');
    await approval.getByRole('button', { name: 'Send request' }).click();
    await expect(approval.getByTestId('approval-status')).toHaveText('Changes requested');

    // Frame stepping while paused: '.' moves one frame (1/15 s at this clip's 15 fps).
    const player = dialog.getByTestId('portal-video');
    await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThan(0);
    await player.evaluate((v: HTMLVideoElement) => {
      v.pause();
      v.currentTime = 1;
    });
    await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(1, 2);
    await player.focus();
    await portal.keyboard.press('.');
    await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(1 + 1 / 15, 3);
    await portal.keyboard.press(',');
    await portal.keyboard.press(',');
    await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(1 - 1 / 15, 3);
    // The note's time shows the SMPTE timecode on hover (15 fps, no start timecode).
    await expect(dialog.getByTestId('timeline-list').locator('[data-smpte]').first()).toHaveAttribute('title', 'Timecode 00:00:02:00');
    await portal.keyboard.press('Escape');

    // Staff see the decision, reply to the note, resolve it, and upload v2.
    await staff.goto('/admin/media');
    await islandsReady(staff);
    const card = adminCard(staff, 'Brand Film');
    await expect(card.getByTestId('approval-status')).toHaveText('Changes requested');
    await card.getByRole('button', { name: 'Open Brand Film' }).click();
    const detail = staff.getByRole('dialog', { name: 'Brand Film' });
    await expect(detail.getByTestId('approval-panel')).toContainText('Move the logo to the end');
    const note = detail.getByTestId('timeline-notes').getByRole('listitem').filter({ hasText: 'Logo comes in too early' });
    await note.getByRole('button', { name: 'Reply to the note at 00:02' }).click();
    await note.getByLabel('Reply to the note at 00:02').fill('Moved to the end in v2');
    await note.getByRole('button', { name: 'Send reply' }).click();
    await expect(note.getByTestId('replies')).toContainText('Moved to the end in v2');
    await note.getByRole('button', { name: 'Resolve' }).click();
    await expect(note).toHaveAttribute('data-resolved', 'true');
    await expect(note.getByText('Logo comes in too early')).toHaveClass(/line-through/);
    await detail.getByLabel('Hide resolved').check();
    await expect(detail.getByText('Logo comes in too early')).toHaveCount(0);
    await detail.getByLabel('Hide resolved').uncheck();

    await detail.getByRole('button', { name: 'Upload new version' }).click();
    const upload = staff.getByRole('dialog', { name: 'Upload new version' });
    await upload.getByLabel('File').setInputFiles(makeVideo(dir, 'brand-v2.mp4', 5));
    await upload.getByRole('button', { name: 'Upload version' }).click();
    await expect(staff.getByTestId('toast').filter({ hasText: 'Version v2 uploaded' })).toBeVisible({ timeout: 30_000 });
    await expect(card.getByTestId('card-version')).toHaveText('v2');
    // The detail dialog, still open under the upload, moves to the new version.
    await expect(detail.getByLabel('Version', { exact: true }).locator('option:checked')).toHaveText(/^v2 \(current\)/);
    await expect(card.getByTestId('approval-status')).toHaveText('In review');

    // The client sees v2 as current, finds their note and the reply on v1, and approves v2.
    await portal.reload();
    await islandsReady(portal);
    await portal.getByRole('button', { name: 'Open Brand Film' }).click();
    dialog = portal.getByRole('dialog', { name: 'Brand Film' });
    const switcher = dialog.getByLabel('Version', { exact: true });
    await expect(switcher).toHaveValue(/\d+/);
    await expect(switcher.locator('option:checked')).toHaveText(/^v2 \(current\)/);
    await dialog.getByRole('tab', { name: 'Timeline' }).click();
    await expect(dialog.getByText('No timeline notes yet.')).toBeVisible();
    await switcher.selectOption({ label: (await switcher.locator('option').filter({ hasText: /^v1/ }).textContent())! });
    const list = dialog.getByTestId('timeline-list');
    await expect(list).toContainText('Logo comes in too early');
    await expect(list.getByTestId('replies')).toContainText('Moved to the end in v2');
    await expect(list.getByRole('listitem').first()).toHaveAttribute('data-resolved', 'true');
    await expect(dialog.getByTestId('client-approval')).toContainText('decisions are made on the current one');
    // The older cut stays downloadable, as its own file.
    const v1Link = dialog.getByRole('link', { name: 'Download v1' });
    const v1Href = (await v1Link.getAttribute('href'))!;
    expect(v1Href).toMatch(/^\/media\/[a-f0-9]{32}\/original\.mp4\?download=1$/);
    const got = await portal.request.get(v1Href);
    expect(got.status()).toBe(200);
    expect(got.headers()['content-disposition']).toMatch(/^attachment; filename="brand-v1\.mp4"/);
    expect(Buffer.from(await got.body()).equals(v1)).toBe(true);
    await expect(await seriousViolations(portal)).toEqual([]);
    await switcher.selectOption({ label: (await switcher.locator('option').filter({ hasText: /^v2/ }).textContent())! });
    await dialog.getByTestId('client-approval').getByRole('button', { name: 'Approve' }).click();
    await expect(dialog.getByTestId('client-approval').getByTestId('approval-status')).toHaveText('Approved');

    // Staff: "Approved" on the card, the filter finds it, the dashboard no longer counts it.
    await staff.goto('/admin/media?approval=approved');
    await islandsReady(staff);
    await expect(adminCard(staff, 'Brand Film').getByTestId('approval-status')).toHaveText('Approved');
    await staff.goto('/admin/media?approval=awaiting');
    await islandsReady(staff);
    await expect(adminCard(staff, 'Brand Film')).toHaveCount(0);
    await staff.goto('/admin/dashboard');
    await islandsReady(staff);
    await expect(awaiting).toHaveText('0');
    await settled(staff);
  } finally {
    await studio.close();
    await client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a three-stage round (issue 57): started in the dialog, Internal approved by staff, Client approved with changes in the portal, Legal by its named approver', async ({ browser, server }) => {
  test.setTimeout(120_000);
  const studio = await browser.newContext({ baseURL: server.url });
  const client = await browser.newContext({ baseURL: server.url });
  try {
    const login = await createClientWithPortalLogin(server, 'Harbour Legal');
    await createStaffUser(server, { permissions: ['view:media'], displayName: 'Lena Lawyer' });
    const mediaId = await insertMedia(server, { title: 'Round Still', clientIds: [login.clientId] });
    const me = (await server.sql.execute({ sql: 'SELECT display_name AS d, username AS u FROM users WHERE username = ?', args: [ADMIN.username] })).rows[0]!;
    const adminName = String(me.d || me.u);
    const staff = await studio.newPage();
    await signInAs(staff, ADMIN.username, ADMIN.password, `/admin/media?item=${mediaId}`);
    const dialog = staff.getByRole('dialog', { name: 'Round Still' });
    await dialog.getByRole('button', { name: 'Start a review round' }).click();
    const start = staff.getByRole('dialog', { name: 'Start a review round' });
    await start.getByLabel('Round name').fill('Launch review');
    const stage = (n: number) => start.getByRole('listitem', { name: `Stage ${n}` });
    await stage(1).getByRole('checkbox', { name: adminName, exact: true }).check();
    await stage(2).getByRole('checkbox', { name: new RegExp(`^${login.username} \\(Harbour Legal`) }).check();
    await start.getByRole('button', { name: 'Add stage' }).click();
    await expect(start.getByLabel('Stage 3 name')).toHaveValue('Legal');
    await start.getByLabel('Stage 3 rule').selectOption('approver');
    await stage(3).getByRole('checkbox', { name: 'Lena Lawyer' }).check();
    await stage(3).getByRole('checkbox', { name: adminName, exact: true }).check();
    // The approver is chosen among the stage's reviewers: Lena and the admin are offered.
    await expect(start.getByLabel('Stage 3 approver').getByRole('option')).toHaveCount(3);
    await start.getByLabel('Stage 3 approver').selectOption({ label: adminName });
    await start.getByRole('button', { name: 'Start round' }).click();
    await expect(start).toBeHidden();
    const board = dialog.getByTestId('round-board');
    await expect(board.getByTestId('round-stage')).toHaveCount(3);
    await expect(board.getByTestId('round-stage').nth(0)).toHaveAccessibleName('Stage 1: Internal, Open');
    await board.getByTestId('round-decide').getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(board.getByTestId('round-stage').nth(0)).toHaveAccessibleName('Stage 1: Internal, Closed on v1');
    await expect(board.getByTestId('round-stage').nth(1)).toHaveAccessibleName('Stage 2: Client, Open');
    await expect(board.getByTestId('round-decide')).toHaveCount(0);

    // The client decides in the portal, seeing the studio unnamed.
    const portal = await client.newPage();
    await signInClient(portal, login.username, login.password);
    const waiting = portal.getByTestId('portal-waiting');
    await expect(waiting.getByRole('heading')).toHaveText('Waiting on your decision (1)');
    await waiting.getByRole('button', { name: 'Review Round Still' }).click();
    const item = portal.getByRole('dialog', { name: 'Round Still' });
    const theirs = item.getByTestId('round-board');
    await expect(theirs.getByTestId('round-stage').nth(0)).toContainText('The studio');
    await expect(theirs).not.toContainText('Lena Lawyer');
    await expect(item.getByTestId('client-approval')).toHaveCount(0);
    await theirs.getByRole('button', { name: 'Approve with changes' }).click();
    await theirs.getByLabel('What should still change?').fill('Brighter end card');
    await theirs.getByRole('button', { name: 'Approve with these changes' }).click();
    await expect(theirs.getByTestId('round-stage').nth(1)).toHaveAccessibleName('Stage 2: Client, Closed on v1');
    await expect(theirs.getByTestId('round-decide')).toHaveCount(0);
    await item.getByRole('button', { name: 'Close' }).first().click();
    await expect(waiting).toHaveCount(0);

    // The named approver closes the last stage: the round, and the version, are approved.
    // "Waiting on me" finds it for the admin, the Legal stage's approver.
    await staff.goto('/admin/media');
    await islandsReady(staff);
    await staff.getByLabel('Approval').selectOption('waiting_on_me');
    await expect(staff.getByTestId('media-card')).toHaveCount(1);
    await expect(adminCard(staff, 'Round Still')).toBeVisible();
    await staff.goto(`/admin/media?item=${mediaId}`);
    await islandsReady(staff);
    await expect(board.getByTestId('round-stage').nth(2)).toHaveAccessibleName('Stage 3: Legal, Open');
    await expect(board.getByTestId('round-stage').nth(1)).toContainText('Brighter end card');
    await board.getByTestId('round-decide').getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(board.getByText('Approved', { exact: true }).first()).toBeVisible();
    await expect(board.getByTestId('round-stage').nth(2)).toHaveAccessibleName('Stage 3: Legal, Closed on v1');
    await expect(dialog.getByTestId('approval-panel').getByTestId('approval-status')).toHaveText('Approved');
    expect(await seriousViolations(staff)).toEqual([]);
  } finally {
    await studio.close();
    await client.close();
  }
});

test('@mentions (issue 57): typing @ in a staff note offers who can see the item; the note names them and their bell says so', async ({ page, browser, server }) => {
  const login = await createClientWithPortalLogin(server, 'Mention Co');
  const mona = await createStaffUser(server, { permissions: ['view:media'], displayName: 'Mona Mentioned' });
  const mediaId = await insertMedia(server, { title: 'Mention Still', clientIds: [login.clientId] });
  await signInAs(page, ADMIN.username, ADMIN.password, `/admin/media?item=${mediaId}`);
  const form = page.getByRole('dialog', { name: 'Mention Still' }).getByTestId('staff-note-form');
  const field = form.getByRole('textbox', { name: 'Note' });
  await field.fill('Crop tighter, @mo');
  const offer = form.getByRole('group', { name: 'People to mention' });
  await offer.getByRole('button', { name: /Mona Mentioned/ }).click();
  await expect(field).toHaveValue('Crop tighter, @Mona Mentioned ');
  await expect(offer).toHaveCount(0);
  await form.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByText('Note added')).toBeVisible();
  await expect.poll(async () => count(server, `SELECT count(*) AS n FROM note_mentions m JOIN users u ON u.id = m.user_id WHERE u.username = '${mona.username}'`)).toBe(1);
  // Mona's bell shows it.
  const other = await browser.newContext({ baseURL: server.url });
  try {
    const her = await other.newPage();
    await signInAs(her, mona.username, mona.password, '/admin/dashboard');
    await her.getByRole('button', { name: 'Notifications' }).click();
    await expect(her.getByText(/mentioned you on "Mention Still" v1/)).toBeVisible();
  } finally {
    await other.close();
  }
});
