// Rebuilds the video sitemap and answers its counts (001 §7). edit:website.
import { endpoint, json } from '../../server/http.ts';
import { requirePermission } from '../../server/auth/guard.ts';
import { buildVideoSitemap, videoSitemapUrl } from '../../server/settings/sitemap.ts';

export const POST = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:website');
  const { pages, videos } = await buildVideoSitemap();
  return json({ pages, videos, url: videoSitemapUrl() });
});
