import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect, ADMIN } from './fixtures.ts';
import { count, createClient, createStaffUser, insertMedia, makeVideo, signInAs, tempDir } from './admin-helpers.ts';
import { hashPassword } from '../../src/server/auth/password.ts';

const card = (page: Page, title: string) => page.getByTestId('media-card').filter({ has: page.getByTestId('card-title').getByText(title, { exact: true }) });

test.describe('detail dialog: Feedback tab', () => {
  test('star ratings, timeline notes sorted by time, and a click on a note seeks the video', async ({ page, server }) => {
    const dir = tempDir();
    try {
      await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
      const video = fs.readFileSync(makeVideo(dir, 'review.mp4', 6));
      const res = await page.request.post('/api/media', {
        headers: { Origin: server.url },
        multipart: { title: 'Review Cut', projectStage: '', notes: '', clientId: '', tags: '', isFeatured: 'false', showInPortfolio: 'false', file: { name: 'review.mp4', mimeType: 'video/mp4', buffer: video } },
      });
      expect(res.status()).toBe(201);
      const mediaId = (await res.json()).id as number;
      const clientId = await createClient(server, 'Reviewer Co');
      const cu = await server.sql.execute({
        sql: 'INSERT INTO client_users (client_id, username, email, password_hash) VALUES (?, ?, ?, ?) RETURNING id',
        args: [clientId, 'reviewer', 'reviewer@example.test', await hashPassword('reviewer-pass-1')],
      });
      const cuId = Number(cu.rows[0]!.id);
      await server.sql.execute({ sql: 'INSERT INTO client_feedback (media_id, client_user_id, feedback_text, rating) VALUES (?, ?, ?, 4)', args: [mediaId, cuId, 'Lovely grade'] });
      for (const [t, text] of [[4, 'Trim this shot'], [1, 'Great opening'], [2, 'Louder music']] as const) {
        await server.sql.execute({ sql: 'INSERT INTO timeline_notes (media_id, client_user_id, timestamp_seconds, note_text) VALUES (?, ?, ?, ?)', args: [mediaId, cuId, t, text] });
      }

      await page.goto('/admin/media');
      const c = card(page, 'Review Cut');
      await expect(c).toContainText('Client Review');
      await c.getByRole('button', { name: 'Open Review Cut' }).click();
      const dialog = page.getByRole('dialog', { name: 'Review Cut' });
      await expect(dialog.getByRole('tab', { name: 'Feedback' })).toHaveAttribute('aria-selected', 'true');
      await expect(dialog.getByRole('img', { name: '4 out of 5 stars' })).toBeVisible();
      await expect(dialog).toContainText('Lovely grade');
      // Each note's own button seeks (Resolve and Reply sit beside it).
      const notes = dialog.getByTestId('timeline-notes').getByTestId('note-seek');
      await expect(notes).toHaveCount(3);
      await expect(notes.nth(0)).toContainText('0:01');
      await expect(notes.nth(0)).toContainText('Great opening');
      await expect(notes.nth(1)).toContainText('Louder music');
      await expect(notes.nth(2)).toContainText('0:04');

      const player = dialog.getByTestId('detail-video');
      await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThan(0);
      const box = await player.boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(200);
      expect(box!.height).toBeLessThanOrEqual(400);
      await notes.nth(1).click();
      await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(2, 0);
      await notes.nth(2).click();
      await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(4, 0);

      // Without a poster (or thumbnail) the card's preview seeks to 2 s for its frame.
      await server.sql.execute({ sql: 'UPDATE media SET poster_url = NULL, thumbnail_url = NULL, thumbnail_webp_url = NULL WHERE id = ?', args: [mediaId] });
      await page.reload();
      const preview = card(page, 'Review Cut').getByTestId('card-video');
      await expect(preview).not.toHaveAttribute('poster');
      await expect.poll(() => preview.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(2, 1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

test.describe('media card: Client Review overlay', () => {
  test('shows when there is feedback; timeline notes alone do not show it', async ({ page, server }) => {
    const clientId = await createClient(server, 'Overlay Co');
    const cu = await server.sql.execute({
      sql: 'INSERT INTO client_users (client_id, username, email, password_hash) VALUES (?, ?, ?, ?) RETURNING id',
      args: [clientId, 'overlay.viewer', 'overlay.viewer@example.test', await hashPassword('overlay-pass-1')],
    });
    const cuId = Number(cu.rows[0]!.id);
    const notesOnly = await insertMedia(server, { title: 'Notes Only Cut', type: 'video', clientIds: [clientId] });
    const withFeedback = await insertMedia(server, { title: 'Feedback Cut', type: 'video', clientIds: [clientId] });
    await server.sql.execute({ sql: 'INSERT INTO timeline_notes (media_id, client_user_id, timestamp_seconds, note_text) VALUES (?, ?, 3, ?)', args: [notesOnly, cuId, 'Tighter cut'] });
    await server.sql.execute({ sql: 'INSERT INTO client_feedback (media_id, client_user_id, feedback_text, rating) VALUES (?, ?, ?, 5)', args: [withFeedback, cuId, 'Perfect'] });
    await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
    await expect(card(page, 'Feedback Cut').getByText('Client Review', { exact: true })).toBeVisible();
    await expect(card(page, 'Notes Only Cut')).toBeVisible();
    await expect(card(page, 'Notes Only Cut').getByText('Client Review', { exact: true })).toHaveCount(0);
  });
});

test.describe('media card: actions menu type-ahead', () => {
  test('letters jump between items; Space continues typed text and only activates once it has reset', async ({ page, server }) => {
    await insertMedia(server, { title: 'Typeahead Cut' });
    // The page's timers run on a clock the test moves, so typed text resets exactly when the
    // test says, however slow the machine (the reset is 1000 ms after the last key).
    await page.clock.install();
    await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
    await card(page, 'Typeahead Cut').getByRole('button', { name: 'Actions for Typeahead Cut' }).click();
    const menu = page.getByRole('menu', { name: 'Actions for Typeahead Cut' });
    const item = (name: string) => menu.getByRole('menuitem', { name });
    await expect(item('View Feedback')).toBeFocused();
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 5000);
    await page.keyboard.press('m');
    await expect(item('Media Settings')).toBeFocused();
    await page.keyboard.press('e');
    // "me" is still Media Settings: more of the focused label keeps focus there.
    await expect(item('Media Settings')).toBeFocused();
    await page.clock.runFor(1000);
    // Typed with the clock standing: one search, the Space in it text. The "m" after the Space
    // moving focus to Edit Media shows the Space's handler had run before it (and had it
    // activated Edit Media, the menu would have closed with its dialog open).
    await page.keyboard.type('edit m');
    await expect(item('Edit Media')).toBeFocused();
    await expect(menu).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Edit Media' })).toHaveCount(0);
    // Once the text has reset, a Space on its own presses the focused item.
    await page.clock.runFor(1000);
    await page.clock.resume();
    await page.keyboard.press(' ');
    await expect(page.getByRole('dialog', { name: 'Edit Media' })).toBeVisible();
  });
});

test.describe('permissions on the media screen', () => {
  test('without edit:media and assign:client the menu items are absent and the API refuses (403)', async ({ page, server }) => {
    const user = await createStaffUser(server, { permissions: ['view:media', 'upload:media'] });
    const id = await insertMedia(server, { title: 'Guarded Item', tags: ['keep'] });
    const clientId = await createClient(server, 'Guarded Client');
    await signInAs(page, user.username, user.password, '/admin/media');
    await expect(page.getByRole('button', { name: 'Upload Media' })).toBeVisible();
    await card(page, 'Guarded Item').getByRole('button', { name: 'Actions for Guarded Item' }).click();
    await expect(page.getByRole('menuitem')).toHaveText(['View Feedback', 'Upload new version', 'Media Settings', 'Delete Media']);
    await page.getByRole('menuitem', { name: 'Media Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Guarded Item' });
    await expect(dialog.getByRole('tab')).toHaveText(['Feedback', 'Settings']);

    // The server refuses what the screen hides (and what it shows but the user may not do).
    const put = await page.request.put(`/api/media/${id}`, { data: { title: 'Hacked' } });
    expect(put.status()).toBe(403);
    expect((await put.json()).message).toContain('edit:media');
    expect((await page.request.post(`/api/media/${id}/clients/${clientId}`)).status()).toBe(403);
    expect((await page.request.delete(`/api/media/${id}/clients/${clientId}`)).status()).toBe(403);
    expect((await page.request.delete(`/api/media/${id}`)).status()).toBe(403);

    await dialog.getByRole('switch', { name: /Featured Media/ }).check();
    await dialog.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByTestId('toast')).toContainText('Error');
    await expect(page.getByTestId('toast')).toContainText('Failed to update media settings');
    await dialog.getByRole('button', { name: 'Delete Media' }).click();
    await page.getByRole('dialog', { name: 'Delete Media' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByTestId('toast')).toContainText('Failed to delete media');
    const row = (await server.sql.execute({ sql: 'SELECT title, is_featured FROM media WHERE id = ?', args: [id] })).rows[0]!;
    expect(row).toMatchObject({ title: 'Guarded Item', is_featured: 0 });
    expect(await count(server, `SELECT COUNT(*) FROM media_clients WHERE media_id = ${id}`)).toBe(0);
  });

  test('without upload:media there is no Upload button, ?upload=true opens nothing, and POST is refused', async ({ page, server }) => {
    const user = await createStaffUser(server, { permissions: ['view:media'] });
    await signInAs(page, user.username, user.password, '/admin/media?upload=true');
    await expect(page.getByTestId('media-count')).toContainText('Showing');
    await expect(page.getByRole('button', { name: 'Upload Media' })).toHaveCount(0);
    await expect(page.getByRole('dialog', { name: 'Upload New Media' })).toHaveCount(0);
    await expect(page).toHaveURL(/\/admin\/media$/);
    const res = await page.request.post('/api/media', { headers: { Origin: server.url }, multipart: { title: 'Nope', file: { name: 'a.jpg', mimeType: 'image/jpeg', buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0]) } } });
    expect(res.status()).toBe(403);
    expect((await res.json()).message).toContain('upload:media');
  });

  test('without view:media the media page is denied', async ({ page, server }) => {
    const user = await createStaffUser(server, { permissions: ['view:clients'] });
    await signInAs(page, user.username, user.password, '/admin/media');
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  });
});

test('a note made a task (issue 57): given to an editor, ticked done in the version’s checklist and counted; “Not a task” takes it off', async ({ page, server }) => {
  await createStaffUser(server, { permissions: ['view:media'], displayName: 'Eddie Editor' });
  const mediaId = await insertMedia(server, { title: 'Task Still' });
  const versionId = Number((await server.sql.execute({ sql: 'SELECT id FROM media_versions WHERE media_id = ?', args: [mediaId] })).rows[0]!.id);
  for (const text of ['Crop tighter', 'Warmer grade']) {
    await server.sql.execute({ sql: "INSERT INTO timeline_notes (media_id, version_id, timestamp_seconds, note_text, by_staff, author_name) VALUES (?, ?, 0, ?, 1, 'Admin')", args: [mediaId, versionId, text] });
  }
  await signInAs(page, ADMIN.username, ADMIN.password, `/admin/media?item=${mediaId}`);
  const dialog = page.getByRole('dialog', { name: 'Task Still' });
  const note = dialog.getByTestId('timeline-notes').getByRole('listitem').filter({ hasText: 'Crop tighter' });
  await note.getByRole('button', { name: 'Make task of the note at 00:00' }).click();
  const checklist = dialog.getByTestId('task-checklist');
  await expect(checklist.getByTestId('task-count')).toHaveText('0 of 1 done · 2 notes');
  await note.getByLabel('Assignee of the task at 00:00').selectOption({ label: 'Eddie Editor' });
  await expect(checklist).toContainText('Crop tighter · Eddie Editor');
  await checklist.getByRole('checkbox', { name: 'Done: Crop tighter' }).check();
  await expect(checklist.getByTestId('task-count')).toHaveText('1 of 1 done · 2 notes');
  await expect(note.getByLabel('State of the task at 00:00')).toHaveValue('done');
  // As stored: the same after a reload.
  await page.reload();
  await card(page, 'Task Still').getByRole('button', { name: 'Open Task Still' }).click();
  await expect(dialog.getByTestId('task-checklist').getByTestId('task-count')).toHaveText('1 of 1 done · 2 notes');
  await note.getByRole('button', { name: 'Not a task' }).click();
  await expect(dialog.getByTestId('task-checklist')).toHaveCount(0);
  await expect(note.getByRole('button', { name: 'Make task of the note at 00:00' })).toBeVisible();
});
