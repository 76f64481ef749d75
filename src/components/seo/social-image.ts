import type { BrandingSettings, SeoSettings } from '../../server/settings/read.ts';

/**
 * The social images (000 §4): Open Graph falls back to the Twitter image and vice versa
 * (then to the branding share image); with none, both tags are set empty.
 */
export function socialImages(seo: SeoSettings, branding: BrandingSettings, siteUrl: string): { og: string; twitter: string } {
  const og = seo.openGraphImage?.url ?? seo.twitterImage?.url ?? branding.openGraphImage?.url ?? null;
  const tw = seo.twitterImage?.url ?? seo.openGraphImage?.url ?? branding.openGraphImage?.url ?? null;
  const abs = (u: string | null) => (u ? new URL(u, siteUrl).href : '');
  return { og: abs(og), twitter: abs(tw) };
}
