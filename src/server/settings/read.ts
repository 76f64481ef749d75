// Read side of the site settings (000 §3 shapes). Pages call these directly; the public
// GET endpoints return the same objects.
import { eq, inArray } from 'drizzle-orm';
import { FEATURED_LIMIT_DEFAULT } from '../../shared/schemas/settings.ts';
import { DEFAULT_CATEGORIES } from '../../shared/portfolio.ts';
import { db } from '../../db/index.ts';
import { brandingSettings, contactInfo, media, seoSettings, websiteSettings } from '../../db/schema.ts';
import { DEFAULT_COMPANY_NAME } from '../../db/seed-data.ts';
import { backgroundVideoUrl, playbackFields } from '../media/playback.ts';
import type { BrandingSettings, ContactInfo, MediaRef, SeoSettings, WebsiteSectionEntry } from '../../shared/site-settings.ts';

// The shapes read here live in src/shared so the admin islands can name them (issue 34).
export type { BrandingSettings, ContactInfo, MediaRef, SeoRow, SeoSettings, WebsiteSectionEntry } from '../../shared/site-settings.ts';

type MediaRow = typeof media.$inferSelect;

function ref(row: MediaRow | undefined): MediaRef | null {
  if (!row) return null;
  const playback = playbackFields(row);
  return {
    id: row.id,
    type: row.type,
    url: row.url,
    webpUrl: row.webpUrl,
    thumbnailUrl: row.thumbnailUrl,
    thumbnailWebpUrl: row.thumbnailWebpUrl,
    posterUrl: row.posterUrl,
    title: row.title,
    tags: row.tags ?? [],
    width: row.width,
    height: row.height,
    playbackUrl: playback.playbackUrl,
    backgroundUrl: backgroundVideoUrl(playback),
  };
}

async function mediaByIds(ids: (number | null | undefined)[]): Promise<Map<number, MediaRow>> {
  const wanted = [...new Set(ids.filter((x): x is number => typeof x === 'number'))];
  if (!wanted.length) return new Map();
  const rows = await db.select().from(media).where(inArray(media.id, wanted));
  return new Map(rows.map((r) => [r.id, r]));
}

export async function getWebsiteSettings(): Promise<WebsiteSectionEntry[]> {
  const rows = await db.select().from(websiteSettings).orderBy(websiteSettings.id);
  const byId = await mediaByIds(rows.flatMap((r) => [r.backgroundImageId, r.backgroundVideoId]));
  return rows.map((r) => ({
    section: r.section,
    backgroundImageId: r.backgroundImageId,
    backgroundVideoId: r.backgroundVideoId,
    backgroundImage: ref(r.backgroundImageId ? byId.get(r.backgroundImageId) : undefined),
    backgroundVideo: ref(r.backgroundVideoId ? byId.get(r.backgroundVideoId) : undefined),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

/** Background of one section: the first entry wins, video over image (000 §3). */
export function sectionBackground(entries: WebsiteSectionEntry[], section: string): { video: MediaRef | null; image: MediaRef | null } {
  const e = entries.find((x) => x.section === section);
  return { video: e?.backgroundVideo ?? null, image: e?.backgroundImage ?? null };
}

export async function getBrandingSettings(): Promise<BrandingSettings> {
  const [row] = await db.select().from(brandingSettings).where(eq(brandingSettings.id, 1)).limit(1);
  const byId = await mediaByIds([row?.logoLightImageId, row?.logoDarkImageId, row?.faviconImageId, row?.openGraphImageId]);
  const pick = (id: number | null | undefined) => ref(id ? byId.get(id) : undefined);
  return {
    companyName: row?.companyName || DEFAULT_COMPANY_NAME,
    showCompanyText: row?.showCompanyText ?? true,
    logoLightImageId: row?.logoLightImageId ?? null,
    logoDarkImageId: row?.logoDarkImageId ?? null,
    faviconImageId: row?.faviconImageId ?? null,
    openGraphImageId: row?.openGraphImageId ?? null,
    featuredLimit: row?.featuredLimit ?? FEATURED_LIMIT_DEFAULT,
    portfolioCategories: categoriesOf(row?.portfolioCategories),
    logoLightImage: pick(row?.logoLightImageId),
    logoDarkImage: pick(row?.logoDarkImageId),
    faviconImage: pick(row?.faviconImageId),
    openGraphImage: pick(row?.openGraphImageId),
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

/** A stored list that is not a list of names (edited by hand) falls back to the documents' four. */
function categoriesOf(stored: unknown): string[] {
  return Array.isArray(stored) && stored.length > 0 && stored.every((c) => typeof c === 'string' && c.trim()) ? stored : [...DEFAULT_CATEGORIES];
}

/** The portfolio filter's categories, in order (issue 32). */
export async function getPortfolioCategories(): Promise<string[]> {
  const [row] = await db.select({ list: brandingSettings.portfolioCategories }).from(brandingSettings).where(eq(brandingSettings.id, 1)).limit(1);
  return categoriesOf(row?.list);
}

export async function getSeoSettings(): Promise<SeoSettings> {
  const [row] = await db.select().from(seoSettings).where(eq(seoSettings.id, 1)).limit(1);
  if (!row) throw new Error('SEO settings row missing: the database was not seeded');
  const byId = await mediaByIds([row.openGraphImageId, row.twitterImageId]);
  const og = ref(row.openGraphImageId ? byId.get(row.openGraphImageId) : undefined);
  const tw = ref(row.twitterImageId ? byId.get(row.twitterImageId) : undefined);
  const { id: _id, updatedBy: _by, updatedAt, ...rest } = row;
  return {
    ...rest,
    openGraphImage: og,
    twitterImage: tw,
    openGraphImageUrl: og?.url ?? null,
    twitterImageUrl: tw?.url ?? null,
    updatedAt: updatedAt.toISOString(),
  };
}

export async function getContactInfo(): Promise<ContactInfo> {
  const [row] = await db.select().from(contactInfo).where(eq(contactInfo.id, 1)).limit(1);
  return {
    contactEmail: row?.contactEmail ?? '',
    contactPhone: row?.contactPhone ?? '',
    contactAddress: row?.contactAddress ?? '',
    instagramUrl: row?.instagramUrl ?? '',
    facebookUrl: row?.facebookUrl ?? '',
    linkedinUrl: row?.linkedinUrl ?? '',
  };
}
