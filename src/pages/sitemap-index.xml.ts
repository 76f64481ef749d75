// The sitemap index robots.txt names: the page sitemap and the video sitemap.
import type { APIRoute } from 'astro';
import { buildSitemapIndex } from '../server/settings/sitemap.ts';

export const GET: APIRoute = () =>
  new Response(buildSitemapIndex(), { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
