// One <url> per video with a watch page: loc is the watch page, with its <video:video> entry.
import type { APIRoute } from 'astro';
import { buildVideoSitemap } from '../server/settings/sitemap.ts';

export const GET: APIRoute = async () => {
  const { xml } = await buildVideoSitemap();
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=0, must-revalidate' } });
};
