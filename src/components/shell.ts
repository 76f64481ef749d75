// Settings every public page needs for its head, navigation and footer.
// Pages load these in their own frontmatter and pass them to PublicLayout: Astro fixes the
// response headers (the CSP with the theme script's hash) once the page frontmatter is done,
// so an await inside the layout would leave BaseLayout's hash out of the header.
import { getBrandingSettings, getContactInfo, getSeoSettings, type BrandingSettings, type ContactInfo, type SeoSettings } from '../server/settings/read.ts';

export interface PublicShell {
  branding: BrandingSettings;
  seo: SeoSettings;
  contact: ContactInfo;
}

export async function loadPublicShell(): Promise<PublicShell> {
  const [branding, seo, contact] = await Promise.all([getBrandingSettings(), getSeoSettings(), getContactInfo()]);
  return { branding, seo, contact };
}

/**
 * The name the public pages go by (titles, og:site_name, JSON-LD): the SEO business name when
 * set, else the branding company name, so renaming the company reaches every page (issue 19 #12).
 */
export function siteNameOf(seo: Pick<SeoSettings, 'businessName'>, branding: Pick<BrandingSettings, 'companyName'>): string {
  return seo.businessName.trim() || branding.companyName;
}

/** The home page title when no SEO meta title is set. */
export function homeTitleOf(seo: Pick<SeoSettings, 'businessName' | 'metaTitle'>, branding: Pick<BrandingSettings, 'companyName'>): string {
  return seo.metaTitle.trim() || `${siteNameOf(seo, branding)} | ${HOME_TITLE_TAIL}`;
}

export const HOME_TITLE_TAIL = 'Cinematic Video Production in Leicestershire';
