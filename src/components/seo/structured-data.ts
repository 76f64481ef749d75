// JSON-LD builders for the public pages (000 §9 defaults: United Kingdom, Leicestershire,
// price range '£££', fixed coordinates, four default FAQs).
import type { PublicMedia } from '../../server/media/queries.ts';
import type { ContactInfo, SeoSettings } from '../../server/settings/read.ts';
import { DEFAULT_FAQS } from '../../db/seed-data.ts';
import { toE164 } from '../../shared/phone.ts';
import { isoDuration } from '../../server/media/watch.ts';

export const PRICE_RANGE = '£££';
const DEFAULT_GEO = { latitude: '52.6369', longitude: '-1.1398' };

/**
 * Serialises JSON for a <script type="application/ld+json"> body. Text from the database
 * could contain `</script>`; escaping `<`, `>` and `&` keeps it inside the script element.
 */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function parseJsonList<T>(text: string, guard: (x: unknown) => x is T): T[] {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.filter(guard) : [];
  } catch {
    return [];
  }
}

const isFaq = (x: unknown): x is { question: string; answer: string } =>
  !!x && typeof (x as { question?: unknown }).question === 'string' && typeof (x as { answer?: unknown }).answer === 'string';

export function faqsOf(seo: SeoSettings): { question: string; answer: string }[] {
  const list = parseJsonList(seo.faqs, isFaq).filter((f) => f.question.trim() && f.answer.trim());
  return list.length ? list : DEFAULT_FAQS;
}

export function servicesOf(seo: SeoSettings): string[] {
  return parseJsonList(seo.services, (x): x is string => typeof x === 'string' && x.trim() !== '');
}

const abs = (url: string | null | undefined, base: string) => (url ? new URL(url, base).href : undefined);

export function businessJsonLd(seo: SeoSettings, contact: ContactInfo, opts: { siteUrl: string; /** siteNameOf(): the business name or the company name */ companyName: string; logoUrl?: string | null }) {
  const type = seo.businessType === 'LocalBusiness' ? 'LocalBusiness' : 'ProfessionalService';
  const sameAs = [contact.instagramUrl, contact.facebookUrl, contact.linkedinUrl].filter(Boolean);
  const services = servicesOf(seo);
  return {
    '@context': 'https://schema.org',
    '@type': type,
    name: opts.companyName,
    description: seo.businessDescription || seo.metaDescription || undefined,
    url: seo.businessUrl || opts.siteUrl,
    telephone: toE164(seo.businessPhone || contact.contactPhone) ?? undefined,
    email: seo.businessEmail || contact.contactEmail || undefined,
    image: abs(opts.logoUrl, opts.siteUrl),
    priceRange: PRICE_RANGE,
    address: {
      '@type': 'PostalAddress',
      streetAddress: seo.streetAddress || undefined,
      addressLocality: seo.addressLocality || 'Leicestershire',
      addressRegion: seo.addressRegion || undefined,
      postalCode: seo.postalCode || undefined,
      addressCountry: seo.addressCountry || 'GB',
    },
    geo: {
      '@type': 'GeoCoordinates',
      latitude: Number(seo.latitude || DEFAULT_GEO.latitude),
      longitude: Number(seo.longitude || DEFAULT_GEO.longitude),
    },
    areaServed: 'United Kingdom',
    sameAs: sameAs.length ? sameAs : undefined,
    hasOfferCatalog: services.length
      ? {
          '@type': 'OfferCatalog',
          name: 'Video production services',
          itemListElement: services.map((name) => ({ '@type': 'Offer', itemOffered: { '@type': 'Service', name } })),
        }
      : undefined,
  };
}

export function faqJsonLd(seo: SeoSettings) {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: faqsOf(seo).map((f) => ({
      '@type': 'Question',
      name: f.question,
      acceptedAnswer: { '@type': 'Answer', text: f.answer },
    })),
  };
}


export function videoJsonLd(items: PublicMedia[], siteUrl: string, companyName: string) {
  return items
    .filter((m) => m.type === 'video')
    .map((m) => ({
      '@context': 'https://schema.org',
      '@type': 'VideoObject',
      name: m.title,
      description: `${m.title} – a film by ${companyName}.`,
      thumbnailUrl: abs(m.posterUrl ?? m.thumbnailUrl, siteUrl) ?? new URL('/images/about-mission.webp', siteUrl).href,
      uploadDate: m.createdAt,
      contentUrl: abs(m.playbackUrl ?? m.url, siteUrl),
      duration: isoDuration(m.durationSeconds),
    }));
}

/**
 * A watch page's structured data (issue 21): the VideoObject search engines index it by, and
 * its breadcrumb. contentUrl is the public review proxy (watch.ts); images get no VideoObject.
 */
export function watchJsonLd(
  item: PublicMedia,
  opts: { siteUrl: string; pageUrl: string; embedUrl: string; description: string; image: string | null; contentUrl: string | null; duration: string | undefined; transcript?: string | null },
) {
  const crumbs = {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [
      { '@type': 'ListItem', position: 1, name: 'Home', item: new URL('/', opts.siteUrl).href },
      { '@type': 'ListItem', position: 2, name: 'Portfolio', item: new URL('/portfolio', opts.siteUrl).href },
      { '@type': 'ListItem', position: 3, name: item.title, item: opts.pageUrl },
    ],
  };
  if (item.type !== 'video') return [crumbs];
  const video = {
    '@context': 'https://schema.org',
    '@type': 'VideoObject',
    name: item.title,
    description: opts.description,
    thumbnailUrl: abs(opts.image, opts.siteUrl) ?? new URL('/images/about-mission.webp', opts.siteUrl).href,
    uploadDate: item.createdAt,
    duration: opts.duration,
    contentUrl: abs(opts.contentUrl, opts.siteUrl),
    embedUrl: opts.embedUrl,
    url: opts.pageUrl,
    // The published captions' text (issue 54), as the page shows it under the player.
    ...(opts.transcript ? { transcript: opts.transcript } : {}),
  };
  return [video, crumbs];
}
