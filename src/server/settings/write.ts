// Write side of the site settings. Every save bumps the site version in the same
// transaction, so the page cache of every process re-renders on the next request.
import { and, inArray, isNull } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { brandingSettings, contactInfo, media, seoSettings, WEBSITE_SECTIONS, websiteSettings, type WebsiteSection } from '../../db/schema.ts';
import { DEFAULT_COMPANY_NAME } from '../../db/seed-data.ts';
import type { BrandingInput, ContactInfoInput, PortfolioCategoriesInput, SectionBackgroundInput, SeoInput } from '../../shared/schemas/settings.ts';
import { badRequest } from '../http.ts';
import { bumpSiteVersion } from '../site-version.ts';
import { auditIn, type AuditOrigin } from '../audit/record.ts';
import { getBrandingSettings, getContactInfo, getPortfolioCategories, getSeoSettings, getWebsiteSettings, type WebsiteSectionEntry } from './read.ts';

type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];

export function isWebsiteSection(value: string): value is WebsiteSection {
  return (WEBSITE_SECTIONS as readonly string[]).includes(value);
}

/**
 * Checks that each given id names a library item of the wanted type; a wrong type or a missing
 * item is a 400 naming the field. A still uploaded into a gallery is the gallery's, not the
 * site's (issue 53): the pickers do not list it, and it counts as missing here. Runs inside the write transaction so a concurrent
 * delete cannot slip between the check and the write.
 */
async function assertMediaTypes(tx: Tx, wanted: { field: string; id: number | null | undefined; type: 'image' | 'video' }[]): Promise<void> {
  const ids = wanted.flatMap((w) => (typeof w.id === 'number' ? [w.id] : []));
  if (!ids.length) return;
  const rows = await tx.select({ id: media.id, type: media.type }).from(media).where(and(inArray(media.id, ids), isNull(media.galleryId)));
  const typeOf = new Map(rows.map((r) => [r.id, r.type]));
  for (const w of wanted) {
    if (typeof w.id !== 'number') continue;
    const type = typeOf.get(w.id);
    if (!type) throw badRequest(`${w.field}: no library item with id ${w.id}`);
    if (type !== w.type) throw badRequest(`${w.field}: media ${w.id} is ${type === 'image' ? 'an image' : 'a video'}, not ${w.type === 'image' ? 'an image' : 'a video'}`);
  }
}

/** The audit row of a settings save (issue 56): which settings and which of their fields. */
function settingsChanged(tx: Tx, origin: AuditOrigin, section: string, fields: string[]) {
  return auditIn(tx, origin, { kind: 'settings.changed', object: { type: 'settings', id: section, name: section }, detail: { fields } });
}

/** Drops keys whose value is undefined (absent in the request: keep the stored value). */
function given<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export async function updateSectionBackground(section: string, input: SectionBackgroundInput, userId: string, origin: AuditOrigin): Promise<WebsiteSectionEntry> {
  if (!isWebsiteSection(section)) throw badRequest(`section: unknown section "${section}"`);
  await db.transaction(async (tx) => {
    await assertMediaTypes(tx, [
      { field: 'backgroundImageId', id: input.backgroundImageId, type: 'image' },
      { field: 'backgroundVideoId', id: input.backgroundVideoId, type: 'video' },
    ]);
    const values = { ...given(input), updatedBy: userId, updatedAt: new Date() };
    await tx
      .insert(websiteSettings)
      .values({ section, ...values })
      .onConflictDoUpdate({ target: websiteSettings.section, set: values });
    await settingsChanged(tx, origin, `website:${section}`, Object.keys(given(input)));
    await bumpSiteVersion(tx);
  });
  const entry = (await getWebsiteSettings()).find((e) => e.section === section);
  return entry!;
}

export async function updateBranding(input: BrandingInput, userId: string, origin: AuditOrigin) {
  await db.transaction(async (tx) => {
    await assertMediaTypes(tx, [
      { field: 'logoLightImageId', id: input.logoLightImageId, type: 'image' },
      { field: 'logoDarkImageId', id: input.logoDarkImageId, type: 'image' },
      { field: 'faviconImageId', id: input.faviconImageId, type: 'image' },
      { field: 'openGraphImageId', id: input.openGraphImageId, type: 'image' },
    ]);
    const values = { ...given(input), updatedBy: userId, updatedAt: new Date() };
    await tx
      .insert(brandingSettings)
      .values({ id: 1, companyName: DEFAULT_COMPANY_NAME, ...values })
      .onConflictDoUpdate({ target: brandingSettings.id, set: values });
    await settingsChanged(tx, origin, 'branding', Object.keys(given(input)));
    await bumpSiteVersion(tx);
  });
  return getBrandingSettings();
}

/**
 * Saves the portfolio's categories (issue 32). Items keep their tags: a renamed category
 * shows the items tagged with its new name.
 */
export async function updatePortfolioCategories(input: PortfolioCategoriesInput, userId: string, origin: AuditOrigin): Promise<string[]> {
  await db.transaction(async (tx) => {
    const values = { portfolioCategories: input.categories, updatedBy: userId, updatedAt: new Date() };
    await tx
      .insert(brandingSettings)
      .values({ id: 1, companyName: DEFAULT_COMPANY_NAME, ...values })
      .onConflictDoUpdate({ target: brandingSettings.id, set: values });
    await settingsChanged(tx, origin, 'portfolio-categories', ['categories']);
    await bumpSiteVersion(tx);
  });
  return getPortfolioCategories();
}

export async function updateSeo(input: Partial<SeoInput>, userId: string, origin: AuditOrigin) {
  await db.transaction(async (tx) => {
    await assertMediaTypes(tx, [
      { field: 'openGraphImageId', id: input.openGraphImageId, type: 'image' },
      { field: 'twitterImageId', id: input.twitterImageId, type: 'image' },
    ]);
    const values = { ...given(input), updatedBy: userId, updatedAt: new Date() };
    await tx
      .insert(seoSettings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: seoSettings.id, set: values });
    await settingsChanged(tx, origin, 'seo', Object.keys(given(input)));
    await bumpSiteVersion(tx);
  });
  return getSeoSettings();
}

export async function updateContactInfo(input: Partial<ContactInfoInput>, userId: string, origin: AuditOrigin) {
  await db.transaction(async (tx) => {
    const values = { ...given(input), updatedBy: userId, updatedAt: new Date() };
    await tx
      .insert(contactInfo)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: contactInfo.id, set: values });
    await settingsChanged(tx, origin, 'contact', Object.keys(given(input)));
    await bumpSiteVersion(tx);
  });
  return getContactInfo();
}
