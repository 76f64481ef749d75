// /robots.txt: public pages open to crawlers, private areas not, and where the sitemap is.
import type { APIRoute } from 'astro';
import { config } from '../server/config.ts';

export const GET: APIRoute = () =>
  new Response(
    ['User-agent: *', 'Allow: /', 'Disallow: /admin', 'Disallow: /api/', 'Disallow: /client/', 'Disallow: /auth', '', `Sitemap: ${config.siteUrl}/sitemap-index.xml`, `Sitemap: ${config.siteUrl}/sitemap-videos.xml`, ''].join('\n'),
    { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } },
  );
