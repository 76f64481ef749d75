// The website settings as the server reads them (src/server/settings/read.ts) and the admin
// islands and public components show them: section backgrounds, branding, SEO and contact details.
// Types only, so islands can import them without reaching into src/server (issue 34).
import type { seoSettings } from '../db/schema.ts';

export interface MediaRef {
  id: number;
  type: 'image' | 'video';
  url: string;
  webpUrl: string | null;
  thumbnailUrl: string | null;
  thumbnailWebpUrl: string | null;
  posterUrl: string | null;
  title: string;
  tags: string[];
  width: number | null;
  height: number | null;
  /** What players use (a review proxy when ready); null while a video is not playable yet. */
  playbackUrl: string | null;
  /** Section backgrounds: the 720p proxy, else playbackUrl. */
  backgroundUrl: string | null;
}

export interface WebsiteSectionEntry {
  section: string;
  backgroundImageId: number | null;
  backgroundVideoId: number | null;
  backgroundImage: MediaRef | null;
  backgroundVideo: MediaRef | null;
  updatedAt: string;
}

export interface BrandingSettings {
  companyName: string;
  showCompanyText: boolean;
  logoLightImageId: number | null;
  logoDarkImageId: number | null;
  faviconImageId: number | null;
  openGraphImageId: number | null;
  featuredLimit: number;
  /** The portfolio filter's categories after "All" (issue 32; the documents' four by default). */
  portfolioCategories: string[];
  logoLightImage: MediaRef | null;
  logoDarkImage: MediaRef | null;
  faviconImage: MediaRef | null;
  openGraphImage: MediaRef | null;
  updatedAt: string | null;
}

export type SeoRow = typeof seoSettings.$inferSelect;
export interface SeoSettings extends Omit<SeoRow, 'id' | 'updatedAt' | 'updatedBy'> {
  openGraphImage: MediaRef | null;
  twitterImage: MediaRef | null;
  openGraphImageUrl: string | null;
  twitterImageUrl: string | null;
  updatedAt: string | null;
}

export interface ContactInfo {
  contactEmail: string;
  contactPhone: string;
  contactAddress: string;
  instagramUrl: string;
  facebookUrl: string;
  linkedinUrl: string;
}
