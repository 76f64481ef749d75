// The paged portfolio in Chromium (issue 23): "Load more" appends the next page in place, by
// itself when it scrolls into view, without duplicates and without leaving the page.
import { test, expect } from './fixtures.ts';
import { hydrated } from './public-helpers.ts';
import { insertMedia } from '../helpers/public-media.ts';

test('scrolling to "Load more" appends the next page in place', async ({ page, server }) => {
  for (let i = 0; i < 30; i++) await insertMedia(server.sql, server.mediaDir, { title: `Paged ${String(i).padStart(2, '0')}`, type: 'image', portfolio: true });
  await page.goto('/portfolio');
  await hydrated(page);
  const cards = page.getByTestId('media-card');
  await expect(cards).toHaveCount(24);
  await expect(cards.first()).toContainText('Paged 29');
  const more = page.getByTestId('load-more');
  await expect(more).toHaveAttribute('href', '/portfolio?page=2');
  await more.scrollIntoViewIfNeeded();
  await expect(cards).toHaveCount(30);
  await expect(cards.last()).toContainText('Paged 00');
  await expect(more).toHaveCount(0);
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/portfolio');
  const ids = await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-media-id')));
  expect(new Set(ids).size).toBe(30);
});
