// A share link end to end (issue 17), in two browser contexts: staff make a password-protected,
// watermarked link through the "New link" dialog; a visitor without an account opens it, is
// refused a wrong password, plays the watermarked preview, leaves a timeline note under a
// guest name typed once and approves; staff see both in the bell and in the link's access log.
import fs from 'node:fs';
import { test, expect, ADMIN } from './fixtures.ts';
import { islandsReady, makeVideo, signInAs, tempDir } from './admin-helpers.ts';
import { seriousViolations, settled } from './public-helpers.ts';

test('a visitor opens a protected watermarked link, notes and approves; staff see it in the bell and the access log', async ({ browser, server }) => {
  test.setTimeout(150_000);
  const dir = tempDir();
  const studio = await browser.newContext({ baseURL: server.url });
  const guest = await browser.newContext({ baseURL: server.url });
  try {
    const staff = await studio.newPage();
    await signInAs(staff, ADMIN.username, ADMIN.password, '/admin/dashboard');
    const video = fs.readFileSync(makeVideo(dir, 'label-cut.mp4', 4));
    const res = await staff.request.post('/api/media', {
      headers: { Origin: server.url },
      multipart: { title: 'Label Cut', isFeatured: 'false', showInPortfolio: 'false', file: { name: 'label-cut.mp4', mimeType: 'video/mp4', buffer: video } },
    });
    expect(res.status()).toBe(201);
    const { id } = await res.json();
    await expect.poll(async () => (await (await staff.request.get(`/api/media/${id}/processing`)).json()).processingStatus, { timeout: 60_000 }).toBe('ready');
    await server.sql.execute({ sql: 'UPDATE users SET bell_seen_id = (SELECT coalesce(max(id), 0) FROM notification_events) WHERE username = ?', args: [ADMIN.username] });

    // Staff make the link through the dialog.
    await staff.goto('/admin/share-links');
    await islandsReady(staff);
    await staff.getByRole('button', { name: 'New link' }).first().click();
    const dialog = staff.getByRole('dialog', { name: 'New share link' });
    await dialog.getByLabel('Link name').fill('Label review');
    await dialog.getByLabel('Search the library').fill('Label Cut');
    await dialog.getByRole('checkbox', { name: /Label Cut/ }).check();
    await dialog.getByRole('textbox', { name: 'Password (optional)' }).fill('preview-2026');
    await dialog.getByRole('switch', { name: /Allow approving/ }).check();
    await dialog.getByRole('switch', { name: /Watermarked preview/ }).check();
    await dialog.getByLabel('Downloads', { exact: true }).selectOption('preview');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const address = staff.getByTestId('share-link-url');
    await expect(address).toHaveValue(/\/s\/[a-z2-7]{40}$/);
    const url = await address.inputValue();
    await staff.getByRole('button', { name: 'Done' }).click();
    const row = staff.getByTestId('share-link-row').filter({ hasText: 'Label review' });
    await expect(row).toContainText('Password');
    await expect(row).toContainText('Watermarked');

    // The visitor: password first.
    const page = await guest.newPage();
    await page.goto(url);
    await islandsReady(page);
    await expect(page.getByRole('heading', { name: 'Label review' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Password' }).fill('not-it');
    await page.getByRole('button', { name: 'Open' }).click();
    await expect(page.getByText('That password is not right.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Password' }).fill('preview-2026');
    await page.getByRole('button', { name: 'Open' }).click();

    // The watermarked preview plays (the page looks again until it is made).
    const player = page.getByTestId('share-video');
    await expect(player).toBeVisible({ timeout: 60_000 });
    await expect(player).toHaveAttribute('src', /\/lp-[a-f0-9]{24}\.mp4\?v=\d+$/);
    await expect(page.getByRole('link', { name: 'Download', exact: true })).toHaveAttribute('href', /\/lp-[a-f0-9]{24}\.mp4\?v=\d+&download=1$/);
    await player.evaluate(async (v: HTMLVideoElement) => {
      v.muted = true;
      await v.play();
    });
    await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.3);
    await player.evaluate((v: HTMLVideoElement) => {
      v.currentTime = 2;
      v.pause();
    });
    // The playhead's time to the millisecond (issue 29), taken on the pause and the seek.
    await expect(page.getByLabel('Time (seconds)')).toHaveValue(/^[12](\.\d{1,3})?$/);
    await page.getByLabel('Time (seconds)').fill('2');

    // A note under the guest name, then the decision.
    await page.getByLabel('Your name').fill('Sam Producer');
    await page.getByRole('textbox', { name: 'Note', exact: true }).fill('Logo comes in too early');
    await page.getByRole('button', { name: 'Add note' }).click();
    const notes = page.getByRole('list', { name: 'Timeline notes on Label Cut' });
    await expect(notes).toContainText('Logo comes in too early');
    await expect(notes).toContainText('Sam Producer');
    await expect(notes.locator('[data-smpte]')).toHaveText('00:02');
    await page.getByRole('button', { name: 'Approve v1' }).click();
    await expect(page.getByText('Approved by Sam Producer')).toBeVisible();
    await settled(page);
    expect(await seriousViolations(page)).toEqual([]);

    // Staff: the bell has both, and the access log lists what happened.
    await staff.goto('/admin/dashboard');
    await islandsReady(staff);
    const bell = staff.getByRole('button', { name: 'Notifications (2 unread)', exact: true });
    await expect(bell).toBeVisible();
    await bell.click();
    const events = staff.getByRole('region', { name: 'Recent notifications' }).getByRole('link');
    await expect(events.first()).toContainText('Sam Producer made an approval decision on "Label Cut" v1 (through a share link)');
    await expect(events.nth(1)).toContainText('Sam Producer left a timeline note on "Label Cut" v1 (through a share link)');
    await staff.keyboard.press('Escape');

    await staff.goto('/admin/share-links');
    await islandsReady(staff);
    await staff.getByRole('button', { name: 'Access log of Label review' }).click();
    const log = staff.getByTestId('share-log');
    for (const action of ['wrong password', 'unlock', 'open', 'note', 'approved']) await expect(log).toContainText(action);
    await expect(log.getByRole('row').filter({ hasText: 'note' })).toContainText('Sam Producer');
    await expect(log.getByRole('row').filter({ hasText: 'note' })).toContainText('Label Cut');
    await expect(log).toContainText('127.0.0.1');
  } finally {
    await studio.close();
    await guest.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
