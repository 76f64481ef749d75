// The dynamic sitemap with video entries (001 §7 generate-sitemap): the public pages, and
// under /portfolio one <video:video> per portfolio video. Built from the database on each
// request, so it is current in every process without a stored copy.
import { playbackFields } from '../media/playback.ts';
import { and, desc, eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { media } from '../../db/schema.ts';
import { config } from '../config.ts';

/** The public pages (the same list astro.config.mjs gives the static sitemap). */
export const SITEMAP_PAGES = ['/', '/portfolio', '/about', '/services', '/contact', '/privacy-policy'];
export const VIDEO_SITEMAP_PATH = '/sitemap-videos.xml';
const VIDEO_PAGE = '/portfolio';

export function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    // Characters XML 1.0 does not allow at all.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');
}

const abs = (path: string) => new URL(path, config.siteUrl).href;

interface VideoEntry {
  title: string;
  description: string;
  thumbnail: string;
  content: string;
  duration: number | null;
  tags: string[];
  published: string;
}

async function portfolioVideos(): Promise<VideoEntry[]> {
  const rows = await db
    .select()
    .from(media)
    .where(and(eq(media.showInPortfolio, true), eq(media.type, 'video')))
    .orderBy(desc(media.createdAt), desc(media.id));
  return rows.map((r) => ({
    title: r.title,
    // Google requires a description; the notes are private, so describe from title and tags.
    description: r.tags?.length ? `${r.title} – ${r.tags.join(', ')}` : r.title,
    // The format requires a thumbnail: the poster, else the generated still.
    thumbnail: abs(r.posterUrl ?? r.thumbnailUrl ?? r.thumbnailWebpUrl ?? r.url),
    // A file a browser plays: the review proxy when ready (the original may be ProRes).
    content: abs(playbackFields(r).playbackUrl ?? r.url),
    duration: r.durationSeconds && r.durationSeconds > 0 ? Math.min(r.durationSeconds, 28_800) : null,
    tags: (r.tags ?? []).slice(0, 32),
    published: r.createdAt.toISOString(),
  }));
}

function videoXml(v: VideoEntry): string {
  const lines = [
    '    <video:video>',
    `      <video:thumbnail_loc>${escapeXml(v.thumbnail)}</video:thumbnail_loc>`,
    `      <video:title>${escapeXml(v.title.slice(0, 100))}</video:title>`,
    `      <video:description>${escapeXml(v.description.slice(0, 2048))}</video:description>`,
    `      <video:content_loc>${escapeXml(v.content)}</video:content_loc>`,
  ];
  if (v.duration) lines.push(`      <video:duration>${v.duration}</video:duration>`);
  lines.push(`      <video:publication_date>${v.published}</video:publication_date>`);
  for (const t of v.tags) lines.push(`      <video:tag>${escapeXml(t)}</video:tag>`);
  lines.push('    </video:video>');
  return lines.join('\n');
}

export async function buildVideoSitemap(): Promise<{ xml: string; pages: number; videos: number }> {
  const videos = await portfolioVideos();
  const urls = SITEMAP_PAGES.map((p) => {
    const inner = p === VIDEO_PAGE ? videos.map(videoXml) : [];
    return ['  <url>', `    <loc>${escapeXml(abs(p))}</loc>`, ...inner, '  </url>'].join('\n');
  });
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
  return { xml, pages: SITEMAP_PAGES.length, videos: videos.length };
}

export function videoSitemapUrl(): string {
  return abs(VIDEO_SITEMAP_PATH);
}
