// Public pages plus one video entry per portfolio video, generated from the database.
import type { APIRoute } from 'astro';
import { buildVideoSitemap } from '../server/settings/sitemap.ts';

export const GET: APIRoute = async () => {
  const { xml } = await buildVideoSitemap();
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=0, must-revalidate' } });
};
