// The page sitemap: each canonical public URL once, and every watch page (issue 21).
import type { APIRoute } from 'astro';
import { buildPageSitemap } from '../server/settings/sitemap.ts';

export const GET: APIRoute = async () => {
  const { xml } = await buildPageSitemap();
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=0, must-revalidate' } });
};
