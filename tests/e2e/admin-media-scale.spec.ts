import { randomBytes } from 'node:crypto';
import type { InStatement } from '@libsql/client';
import { test, expect, ADMIN } from './fixtures.ts';
import { signInAs } from './admin-helpers.ts';

const N = 2000;
const TAGS = ['wedding', 'corporate', 'music', 'drone', 'interview', 'event', 'promo', 'bts'];
const STAGES = ['concept', 'pre-production', 'production', 'post-production', 'completed', 'delivered', null];

test('the media screen lists, filters and pages 2,000 items', async ({ page, server }) => {
  test.setTimeout(120_000);
  await server.sql.execute('DELETE FROM media');
  const now = Date.now();
  const rows: InStatement[] = [];
  for (let i = 0; i < N; i++) {
    const key = randomBytes(16).toString('hex');
    const video = i % 10 === 0;
    rows.push({
      sql: `INSERT INTO media (title, type, storage_key, url, thumbnail_url, poster_url, filename, file_size, mime_type, is_featured, show_in_portfolio, tags, project_stage, notes, created_at, uploaded_at)
            VALUES (?, ?, ?, ?, ?, ?, 'f', 1000, ?, ?, ?, ?, ?, ?, ?, ?)`,
      args: [
        `Scale item ${i}`,
        video ? 'video' : 'image',
        key,
        `/media/${key}/original.${video ? 'mp4' : 'jpg'}`,
        `/media/${key}/thumb.jpg`,
        video ? `/media/${key}/poster.jpg` : null,
        video ? 'video/mp4' : 'image/jpeg',
        i % 50 === 0 ? 1 : 0,
        i % 7 === 0 ? 1 : 0,
        JSON.stringify([TAGS[i % TAGS.length], TAGS[(i * 3) % TAGS.length]]),
        STAGES[i % STAGES.length] ?? null,
        i % 3 === 0 ? `Notes for shoot number ${i}` : null,
        now - i * 1000,
        now - i * 1000,
      ],
    });
  }
  await server.sql.batch(rows, 'write');

  await page.request.post('/api/login', { data: { username: ADMIN.username, password: ADMIN.password } });
  // How fast this is (first card, filtering, typing) is measured by bench/admin-lists.mjs.
  await page.goto('/admin/media');
  await expect(page.getByTestId('media-count')).toHaveText(`Showing ${N} of ${N} items`, { timeout: 30_000 });
  // Only the first slice is in the DOM; the rest follows as the sentinel scrolls into view.
  await expect(page.getByTestId('media-card')).toHaveCount(60);

  const search = page.getByLabel('Search media');
  await search.fill('scale item 1999');
  await expect(page.getByTestId('media-count')).toHaveText(`Showing 1 of ${N} items`);
  await expect(page.getByTestId('media-card')).toHaveCount(1);
  await expect(page.getByTestId('media-card')).toContainText('Scale item 1999');

  const wedding = Number((await server.sql.execute(`SELECT COUNT(*) FROM media WHERE tags LIKE '%"wedding"%'`)).rows[0]![0]);
  expect(wedding).toBeGreaterThan(60);
  await search.fill('wedding');
  await expect(page.getByTestId('media-count')).toHaveText(`Showing ${wedding} of ${N} items`);
  await expect(page.getByTestId('media-card')).toHaveCount(60);

  await search.fill('');
  await expect(page.getByTestId('media-count')).toHaveText(`Showing ${N} of ${N} items`);
  await search.pressSequentially('notes for', { delay: 20 });
  const noted = Number((await server.sql.execute(`SELECT COUNT(*) FROM media WHERE notes LIKE 'Notes for%'`)).rows[0]![0]);
  await expect(page.getByTestId('media-count')).toHaveText(`Showing ${noted} of ${N} items`);

  await search.fill('');
  await expect(page.getByTestId('media-count')).toHaveText(`Showing ${N} of ${N} items`);
  await page.getByRole('button', { name: /^Load more/ }).scrollIntoViewIfNeeded();
  await expect.poll(() => page.getByTestId('media-card').count()).toBeGreaterThanOrEqual(120);
});
