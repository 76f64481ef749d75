// The sitemaps (001 §7 generate-sitemap, issue 21), built from the database on each request so
// they are current in every process without a stored copy:
// - /sitemap-index.xml names the two below;
// - /sitemap-0.xml lists each canonical page once (no trailing-slash forms) and every watch page;
// - /sitemap-videos.xml gives each portfolio video its own watch page as <loc>.
import { listWatchItems, type PublicMedia } from '../media/queries.ts';
import { embedPath, watchPath, watchSource } from '../media/watch.ts';
import { config } from '../config.ts';

/** The public pages, canonical form (no trailing slash). */
export const SITEMAP_PAGES = ['/', '/portfolio', '/about', '/services', '/contact', '/privacy-policy', '/terms-of-service'];
export const VIDEO_SITEMAP_PATH = '/sitemap-videos.xml';
export const PAGE_SITEMAP_PATH = '/sitemap-0.xml';
export const SITEMAP_INDEX_PATH = '/sitemap-index.xml';

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

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>';

interface VideoEntry {
  page: string;
  title: string;
  description: string;
  thumbnail: string;
  content: string | null;
  player: string;
  duration: number | null;
  tags: string[];
  published: string;
}

function videoEntry(r: PublicMedia): VideoEntry {
  const source = watchSource(r);
  return {
    page: abs(watchPath(r.slug)),
    title: r.title,
    // Google requires a description; the notes are private, so describe from title and tags.
    description: r.tags.length ? `${r.title} – ${r.tags.join(', ')}` : r.title,
    // The format requires a thumbnail: the poster, else the generated still.
    thumbnail: abs(r.posterUrl ?? r.thumbnailUrl ?? r.thumbnailWebpUrl ?? r.url),
    // A file a browser plays: the 1080p/720p proxy, or the original while it is the only one.
    content: source ? abs(source.url) : null,
    player: abs(embedPath(r.slug)),
    duration: r.durationSeconds && r.durationSeconds > 0 ? Math.min(r.durationSeconds, 28_800) : null,
    tags: r.tags.slice(0, 32),
    published: r.createdAt,
  };
}

function videoXml(v: VideoEntry): string {
  const lines = [
    '  <url>',
    `    <loc>${escapeXml(v.page)}</loc>`,
    '    <video:video>',
    `      <video:thumbnail_loc>${escapeXml(v.thumbnail)}</video:thumbnail_loc>`,
    `      <video:title>${escapeXml(v.title.slice(0, 100))}</video:title>`,
    `      <video:description>${escapeXml(v.description.slice(0, 2048))}</video:description>`,
  ];
  if (v.content) lines.push(`      <video:content_loc>${escapeXml(v.content)}</video:content_loc>`);
  lines.push(`      <video:player_loc>${escapeXml(v.player)}</video:player_loc>`);
  if (v.duration) lines.push(`      <video:duration>${v.duration}</video:duration>`);
  lines.push(`      <video:publication_date>${v.published}</video:publication_date>`);
  for (const t of v.tags) lines.push(`      <video:tag>${escapeXml(t)}</video:tag>`);
  lines.push('    </video:video>', '  </url>');
  return lines.join('\n');
}


export async function buildVideoSitemap(): Promise<{ xml: string; videos: number }> {
  // Every video with a watch page: portfolio films and featured ones.
  const videos = (await listWatchItems()).filter((i) => i.type === 'video').map(videoEntry);
  const xml = [
    XML_HEAD,
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">',
    ...videos.map(videoXml),
    '</urlset>',
    '',
  ].join('\n');
  return { xml, videos: videos.length };
}

/** Each canonical public URL once: the fixed pages, then every watch page. */
export async function buildPageSitemap(): Promise<{ xml: string; pages: number; watchPages: number }> {
  const items = await listWatchItems();
  const urls = [...SITEMAP_PAGES.map(abs), ...items.map((i) => abs(watchPath(i.slug)))];
  const xml = [
    XML_HEAD,
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map((u) => `  <url><loc>${escapeXml(u)}</loc></url>`),
    '</urlset>',
    '',
  ].join('\n');
  return { xml, pages: urls.length, watchPages: items.length };
}

export function buildSitemapIndex(): string {
  return [
    XML_HEAD,
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...[PAGE_SITEMAP_PATH, VIDEO_SITEMAP_PATH].map((p) => `  <sitemap><loc>${escapeXml(abs(p))}</loc></sitemap>`),
    '</sitemapindex>',
    '',
  ].join('\n');
}

/** POST /api/generate-sitemap: what the sitemaps hold right now. */
export async function sitemapCounts(): Promise<{ pages: number; watchPages: number; videos: number }> {
  const [{ pages, watchPages }, { videos }] = await Promise.all([buildPageSitemap(), buildVideoSitemap()]);
  return { pages, watchPages, videos };
}

export function videoSitemapUrl(): string {
  return abs(VIDEO_SITEMAP_PATH);
}
