// Rebuilds the sitemaps and answers their counts (001 §7): pages = every URL in the page
// sitemap (fixed pages plus watch pages), watchPages, videos. edit:website.
import { endpoint, json } from '../../server/http.ts';
import { requirePermission } from '../../server/auth/guard.ts';
import { sitemapCounts, videoSitemapUrl } from '../../server/settings/sitemap.ts';

export const POST = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:website');
  return json({ ...(await sitemapCounts()), url: videoSitemapUrl() });
});
