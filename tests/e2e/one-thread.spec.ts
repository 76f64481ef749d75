// One comment thread for everyone (issue 29): a share-link visitor's note sits in the staff
// dialog's notes with a "Guest" badge naming the link, staff answer it there like a client's,
// and a staff note marked internal carries an "Internal" badge; the old separate "Through share
// links" list is gone. Axe clean in both themes.
import { test, expect, ADMIN } from './fixtures.ts';
import { insertMedia, signInAs } from './admin-helpers.ts';
import { seriousViolations } from './public-helpers.ts';

for (const theme of ['light', 'dark'] as const) {
  test(`guest and internal notes in one thread (${theme} theme)`, async ({ page, server }) => {
    const mediaId = await insertMedia(server, { title: `Thread Cut ${theme}`, type: 'video' });
    await page.context().addCookies([{ name: 'studio-theme', value: theme, url: server.url }]);
    await page.addInitScript((t) => localStorage.setItem('studio-theme', t), theme);
    await signInAs(page, ADMIN.username, ADMIN.password, '/admin/dashboard');
    const link = await page.request.post('/api/share-links', { headers: { Origin: server.url }, data: { name: `Agency ${theme}`, mediaIds: [mediaId], allowComment: true } });
    expect(link.status()).toBe(201);
    const linkId = (await link.json()).id as number;
    const version = await server.sql.execute({ sql: 'SELECT id FROM media_versions WHERE media_id = ?', args: [mediaId] });
    await server.sql.execute({
      sql: "INSERT INTO share_comments (link_id, media_id, version_id, guest_name, kind, timestamp_seconds, timestamp_ms, text) VALUES (?, ?, ?, 'Sam Guest', 'note', 1, 1500, 'Logo too early')",
      args: [linkId, mediaId, Number(version.rows[0]!.id)],
    });
    const staffNote = await page.request.post(`/api/media/${mediaId}/timeline-notes`, { headers: { Origin: server.url }, data: { text: 'Check the licence first', timestampMs: 500, internal: true } });
    expect(staffNote.status(), await staffNote.text()).toBe(201);

    await page.goto(`/admin/media?item=${mediaId}`);
    const dialog = page.getByRole('dialog', { name: `Thread Cut ${theme}` });
    const notes = dialog.getByTestId('timeline-notes');
    const guest = notes.getByRole('listitem').filter({ hasText: 'Logo too early' });
    await expect(guest.getByText(`Guest · link “Agency ${theme}”`)).toBeVisible();
    await expect(notes.getByRole('listitem').filter({ hasText: 'Check the licence first' }).getByText('Internal', { exact: true })).toBeVisible();
    await expect(dialog.getByText('Through share links')).toHaveCount(0);

    // Staff answer the guest in the same thread.
    await guest.getByRole('button', { name: /Reply/ }).first().click();
    await guest.getByRole('textbox').fill('Moved in v2, thanks');
    const posted = page.waitForResponse((r) => r.url().includes('/replies') && r.request().method() === 'POST');
    await guest.getByRole('button', { name: /Send|Reply/ }).last().click();
    expect((await posted).status()).toBe(201);
    await expect(guest.getByRole('textbox')).toHaveCount(0);
    await expect(guest).toContainText('Moved in v2, thanks');
    const replies = await server.sql.execute({ sql: 'SELECT reply_text FROM media_replies WHERE share_comment_id IS NOT NULL' });
    expect(replies.rows.map((r) => r.reply_text)).toContain('Moved in v2, thanks');
    expect(await seriousViolations(page)).toEqual([]);
  });
}
