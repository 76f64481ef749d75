// Read-side media queries shared by the public site, admin and portal.
import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { media, mediaSlugHistory } from '../../db/schema.ts';
import { ensureSlugs } from './slugs.ts';
import type { PublicMedia } from '../../shared/public-media.ts';
import { playbackFields } from './playback.ts';
import { ALL, categoryTag, type Category } from '../../shared/portfolio.ts';

export type { PublicMedia } from '../../shared/public-media.ts';

export type MediaRow = typeof media.$inferSelect;

export function toPublicMedia(row: MediaRow): PublicMedia {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    // ensureSlugs() runs before every public read, so a row here has one.
    slug: row.slug ?? String(row.id),
    url: row.url,
    thumbnailUrl: row.thumbnailUrl,
    thumbnailWebpUrl: row.thumbnailWebpUrl,
    webpUrl: row.webpUrl,
    posterUrl: row.posterUrl,
    tags: row.tags ?? [],
    width: row.width,
    height: row.height,
    durationSeconds: row.durationSeconds,
    createdAt: row.createdAt.toISOString(),
    // No failure reasons on the public site.
    ...playbackFields(row),
    processingError: null,
  };
}

export async function listFeaturedMedia(): Promise<PublicMedia[]> {
  await ensureSlugs(db);
  const rows = await db.select().from(media).where(eq(media.isFeatured, true)).orderBy(desc(media.createdAt), desc(media.id));
  return rows.map(toPublicMedia);
}

export async function listPortfolioMedia(): Promise<PublicMedia[]> {
  await ensureSlugs(db);
  const rows = await db.select().from(media).where(eq(media.showInPortfolio, true)).orderBy(desc(media.createdAt), desc(media.id));
  return rows.map(toPublicMedia);
}

export async function getMediaById(id: number): Promise<MediaRow | null> {
  const [row] = await db.select().from(media).where(eq(media.id, id)).limit(1);
  return row ?? null;
}

export async function getMediaOfType(id: number, type: 'image' | 'video'): Promise<MediaRow | null> {
  const [row] = await db.select().from(media).where(and(eq(media.id, id), eq(media.type, type))).limit(1);
  return row ?? null;
}

/** Shown on the public site as a film or still of its own: in the portfolio or featured. */
const isListed: SQL = or(eq(media.showInPortfolio, true), eq(media.isFeatured, true))!;

export const watchPath = (slug: string) => `/portfolio/${encodeURIComponent(slug)}`;

export type WatchLookup =
  | { kind: 'item'; item: PublicMedia; prev: PublicMedia | null; next: PublicMedia | null }
  | { kind: 'moved'; slug: string }
  | null;

/**
 * The watch page's item, its neighbours in the grid it belongs to (the portfolio, else the
 * featured list; newest first, so "previous" is newer), or where an old slug now lives.
 * Items that are neither in the portfolio nor featured have no page (null).
 */
export async function findWatchItem(slug: string): Promise<WatchLookup> {
  await ensureSlugs(db);
  const [row] = await db.select().from(media).where(and(eq(media.slug, slug), isListed)).limit(1);
  if (!row) {
    const [moved] = await db
      .select({ slug: media.slug })
      .from(mediaSlugHistory)
      .innerJoin(media, eq(media.id, mediaSlugHistory.mediaId))
      .where(and(eq(mediaSlugHistory.slug, slug), isListed))
      .limit(1);
    return moved?.slug ? { kind: 'moved', slug: moved.slug } : null;
  }
  const list = row.showInPortfolio ? eq(media.showInPortfolio, true) : eq(media.isFeatured, true);
  const at = row.createdAt.getTime();
  const newer = sql`(${media.createdAt} > ${at} or (${media.createdAt} = ${at} and ${media.id} > ${row.id}))`;
  const older = sql`(${media.createdAt} < ${at} or (${media.createdAt} = ${at} and ${media.id} < ${row.id}))`;
  const [[prev], [next]] = await Promise.all([
    db.select().from(media).where(and(list, newer)).orderBy(media.createdAt, media.id).limit(1),
    db.select().from(media).where(and(list, older)).orderBy(desc(media.createdAt), desc(media.id)).limit(1),
  ]);
  return { kind: 'item', item: toPublicMedia(row), prev: prev ? toPublicMedia(prev) : null, next: next ? toPublicMedia(next) : null };
}

/** Every item with a watch page, newest first (sitemaps). */
export async function listWatchItems(): Promise<PublicMedia[]> {
  await ensureSlugs(db);
  const rows = await db.select().from(media).where(isListed).orderBy(desc(media.createdAt), desc(media.id));
  return rows.map(toPublicMedia);
}

export interface PortfolioPage {
  items: PublicMedia[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  /** Portfolio items in this category (all of them for no category). */
  total: number;
  /** Every portfolio item, whatever the category: the filter shows above FILTER_THRESHOLD. */
  allTotal: number;
}

// A cursor names the last item sent (created_at, id): the next page starts strictly after it
// in the newest-first order, so items added meanwhile (newer) never shift or repeat a page.
function encodeCursor(row: MediaRow): string {
  return Buffer.from(`${row.createdAt.getTime()}.${row.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { at: number; id: number } | null {
  const m = /^(\d{1,15})\.(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return m ? { at: Number(m[1]), id: Number(m[2]) } : null;
}

const inCategory = (c: Category): SQL => sql`exists (select 1 from json_each(${media.tags}) where json_each.value = ${categoryTag(c)})`;

/**
 * One page of the portfolio, newest first: after `cursor` (the API's "Load more") or at
 * `offset` (the server-rendered `?page=N`), optionally of one category.
 */
export async function listPortfolioPage(opts: { limit: number; cursor?: { at: number; id: number } | null; offset?: number; category?: Category | null }): Promise<PortfolioPage> {
  await ensureSlugs(db);
  const inPortfolio = eq(media.showInPortfolio, true);
  const scope = opts.category && opts.category !== ALL ? and(inPortfolio, inCategory(opts.category))! : inPortfolio;
  const after = opts.cursor ? sql`(${media.createdAt} < ${opts.cursor.at} or (${media.createdAt} = ${opts.cursor.at} and ${media.id} < ${opts.cursor.id}))` : undefined;
  const [rows, [{ n: total }], [{ n: allTotal }]] = await Promise.all([
    db
      .select()
      .from(media)
      .where(after ? and(scope, after) : scope)
      .orderBy(desc(media.createdAt), desc(media.id))
      .limit(opts.limit + 1)
      .offset(opts.cursor ? 0 : Math.max(0, opts.offset ?? 0)),
    db.select({ n: count() }).from(media).where(scope),
    db.select({ n: count() }).from(media).where(inPortfolio),
  ]);
  const page = rows.slice(0, opts.limit);
  return { items: page.map(toPublicMedia), nextCursor: rows.length > opts.limit ? encodeCursor(page[page.length - 1]!) : null, total, allTotal };
}

/** The newest `limit` featured items (the home page's What We Do grid). */
export async function listNewestFeatured(limit: number): Promise<{ items: PublicMedia[]; total: number }> {
  await ensureSlugs(db);
  const [rows, [{ n: total }]] = await Promise.all([
    db.select().from(media).where(eq(media.isFeatured, true)).orderBy(desc(media.createdAt), desc(media.id)).limit(limit),
    db.select({ n: count() }).from(media).where(eq(media.isFeatured, true)),
  ]);
  return { items: rows.map(toPublicMedia), total };
}
