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
