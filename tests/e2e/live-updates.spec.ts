// Live updates in the browser (issue 41): each screen that shows review work changes as others
// act, with no reload (a marker set on the page's window survives) and well before any old
// polling could have brought it (the bell asked every 20 s; the list and the portal never did):
// the admin bell, media list, detail dialog and dashboard; the portal's list and item dialog;
// the share page, and the share page of a revoked link.
import type { Page } from '@playwright/test';
import { test, expect, ADMIN } from './fixtures.ts';
import { insertMedia, islandsReady, signInAs } from './admin-helpers.ts';
import { createClientWithPortalLogin } from '../helpers/portal-fixtures.ts';
import { signInClient } from './review-helpers.ts';
import { staffSession } from '../helpers/http.ts';

/** Well under the bell's old 20 s poll; the screens had no other way to learn of it. */
const LIVE = { timeout: 5000 };

async function markPage(page: Page) {
  await page.evaluate(() => ((window as unknown as { __notReloaded: boolean }).__notReloaded = true));
}
const notReloaded = (page: Page) => page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded === true);

/** Waits for the tab's stream to be open (its hello), so what follows is live, not a first load. */
async function streamOpen(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-live', 'open');
}

test('admin: the bell, the media list, the open dialog and the dashboard follow what clients and others do', async ({ page, server, browser }) => {
  const client = await createClientWithPortalLogin(server, 'Live Co');
  const mediaId = await insertMedia(server, { title: 'Live Cut', type: 'image', clientIds: [client.clientId] });
  await server.sql.execute({ sql: 'UPDATE users SET bell_seen_id = (SELECT coalesce(max(id), 0) FROM notification_events)' });
  await signInAs(page, ADMIN.username, ADMIN.password, '/admin/media');
  await islandsReady(page);
  await streamOpen(page);
  await markPage(page);

  // Another staff tab adds an item: it appears in the list.
  const other = await staffSession(server.url, ADMIN.username, ADMIN.password);
  await insertMedia(server, { title: 'Arrived Elsewhere' });
  await expect(page.getByTestId('media-card').filter({ hasText: 'Arrived Elsewhere' })).toBeVisible(LIVE);

  // The item's dialog is open when the client writes a note on it: the note shows, and the bell counts it.
  await page.goto(`/admin/media?item=${mediaId}`);
  await islandsReady(page);
  await streamOpen(page);
  await markPage(page);
  const dialog = page.getByRole('dialog', { name: 'Live Cut' });
  await expect(dialog.getByText('No timeline notes yet')).toBeVisible();
  const portal = await browser.newContext();
  const portalPage = await portal.newPage();
  try {
    await signInClient(portalPage, client);
    const r = await portalPage.request.post(`/api/client/media/${mediaId}/timeline-notes`, { headers: { Origin: server.url }, data: { mediaId, noteText: 'Brighter sky please', timestampMs: 0 } });
    expect(r.status(), await r.text()).toBe(201);
    await expect(dialog.getByTestId('timeline-notes')).toContainText('Brighter sky please', LIVE);
    await expect(page.getByRole('button', { name: 'Notifications (1 unread)', exact: true })).toBeVisible(LIVE);
    // A decision by the client shows on the dialog's approval panel.
    const d = await portalPage.request.put(`/api/client/media/${mediaId}/approval`, { headers: { Origin: server.url }, data: { status: 'approved', note: '', version: 1 } });
    expect(d.status(), await d.text()).toBe(200);
    await expect(dialog.getByTestId('approval-panel')).toContainText('Approved', LIVE);
    expect(await notReloaded(page)).toBe(true);
  } finally {
    await portal.close();
  }

  // The dashboard's counts follow too.
  await page.goto('/admin/dashboard');
  await islandsReady(page);
  await streamOpen(page);
  const total = page.getByTestId('stat-total-media');
  await expect(total).not.toHaveText('');
  const before = Number((await total.textContent())!.replace(/\D/g, ''));
  await insertMedia(server, { title: 'Counted Live' });
  await expect(total).toHaveText(String(before + 1), LIVE);
  void other;
});

test('portal: the studio’s notes, a lock, a new item and one taken away arrive without a reload', async ({ page, server }) => {
  const client = await createClientWithPortalLogin(server, 'Portal Live');
  const mediaId = await insertMedia(server, { title: 'Portal Cut', type: 'image', clientIds: [client.clientId] });
  await signInClient(page, client);
  await streamOpen(page);
  await markPage(page);
  const admin = await staffSession(server.url, ADMIN.username, ADMIN.password);

  await page.getByRole('button', { name: /Portal Cut/ }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Portal Cut' });
  await dialog.getByRole('tab', { name: /Timeline/ }).click();
  expect((await admin.json('POST', `/api/media/${mediaId}/timeline-notes`, { text: 'Studio says hello', timestampMs: 0 })).status).toBe(201);
  expect((await admin.json('POST', `/api/media/${mediaId}/timeline-notes`, { text: 'Internal only', timestampMs: 0, internal: true })).status).toBe(201);
  await expect(dialog).toContainText('Studio says hello', LIVE);
  await expect(dialog).not.toContainText('Internal only');
  await page.keyboard.press('Escape');

  const added = await insertMedia(server, { title: 'Just Assigned', clientIds: [] });
  expect((await admin.json('POST', `/api/media/${added}/clients/${client.clientId}`)).status).toBe(201);
  await expect(page.getByText('Just Assigned')).toBeVisible(LIVE);
  expect((await admin.json('DELETE', `/api/media/${added}/clients/${client.clientId}`)).status).toBe(200);
  await expect(page.getByText('Just Assigned')).toHaveCount(0, LIVE);
  expect(await notReloaded(page)).toBe(true);
});

test('share page: a studio note shows at once; revoking the link says so at once', async ({ page, server }) => {
  const mediaId = await insertMedia(server, { title: 'Shared Cut', type: 'image' });
  const admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const link = await admin.json('POST', '/api/share-links', { name: 'Agency', mediaIds: [mediaId], allowComment: true });
  expect(link.status).toBe(201);
  await page.goto(new URL(link.body.url).pathname);
  await islandsReady(page);
  await streamOpen(page);
  await markPage(page);
  expect((await admin.json('POST', `/api/media/${mediaId}/timeline-notes`, { text: 'Studio note for the agency', timestampMs: 0 })).status).toBe(201);
  await expect(page.getByText('Studio note for the agency')).toBeVisible(LIVE);
  const t0 = Date.now();
  expect((await admin.json('DELETE', `/api/share-links/${link.body.id}`)).status).toBe(200);
  await expect(page.getByText('This link is no longer available')).toBeVisible({ timeout: 1000 });
  expect(Date.now() - t0).toBeLessThan(1500);
  expect(await notReloaded(page)).toBe(true);
});
