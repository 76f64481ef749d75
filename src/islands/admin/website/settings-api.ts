// Calls of the Website Customization screen (001 §7) with their toasts (001 §8).
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import type { BrandingSettings, ContactInfo, MediaRef, SeoSettings, WebsiteSectionEntry } from '../../../shared/site-settings.ts';
import type { BrandingInput, ContactInfoInput, SeoInput, SitemapResult } from '../../../shared/schemas/settings.ts';

export type { BrandingSettings, ContactInfo, MediaRef, SeoSettings, WebsiteSectionEntry };

/** A media library item as GET /api/media lists it (the fields the picker uses). */
export interface PickerMedia extends MediaRef {
  createdAt?: string;
}

/** Runs `call`; toasts `ok` or `fail` (with the server's reason) and answers the result or null. */
async function withToast<T>(call: () => Promise<T>, ok: (result: T) => { title: string; description?: string }, fail: string): Promise<T | null> {
  try {
    const result = await call();
    toast(ok(result));
    return result;
  } catch (e) {
    toast({ title: fail, description: errorMessage(e), variant: 'destructive' });
    return null;
  }
}

export async function fetchMediaLibrary(): Promise<PickerMedia[]> {
  const data = await apiJson<unknown>('GET', '/api/media');
  const list = Array.isArray(data) ? data : ((data as { items?: unknown })?.items ?? []);
  return list as PickerMedia[];
}

export const saveSectionBackground = (section: string, body: { backgroundImageId: number | null; backgroundVideoId: number | null }) =>
  withToast(
    () => apiJson<WebsiteSectionEntry>('PUT', `/api/website-settings/${encodeURIComponent(section)}`, body),
    () => ({ title: 'Background updated successfully' }),
    'Failed to update background',
  );

export const saveBranding = (body: BrandingInput) =>
  withToast(() => apiJson<BrandingSettings>('PUT', '/api/branding-settings', body), () => ({ title: 'Branding settings updated' }), 'Failed to update branding settings');

export const saveSeo = (body: SeoInput) =>
  withToast(() => apiJson<SeoSettings>('PUT', '/api/seo-settings', body), () => ({ title: 'SEO settings updated' }), 'Failed to update SEO settings');

export const saveContactInfo = (body: ContactInfoInput) =>
  withToast(
    () => apiJson<ContactInfo>('PUT', '/api/contact-info', body),
    () => ({ title: 'Contact information updated successfully' }),
    'Failed to update contact information',
  );

export const generateSitemap = () =>
  withToast(
    () => apiJson<SitemapResult>('POST', '/api/generate-sitemap'),
    (r) => ({ title: 'Sitemap generated successfully', description: `${r.pages} pages and ${r.videos} videos included.` }),
    'Failed to generate sitemap',
  );

export const savePortfolioCategories = (categories: string[]) =>
  withToast(
    () => apiJson<{ categories: string[] }>('PUT', '/api/portfolio-categories', { categories }),
    () => ({ title: 'Portfolio categories updated' }),
    'Failed to update portfolio categories',
  );
