// Site settings payloads (001 §3, §5, §7): section backgrounds, branding, SEO and contact
// info. The admin screen validates with these before sending; the PUT endpoints parse with
// the same schemas, so a 400 names the same field the form marks.
import { z } from '../zod.ts';
import type { WebsiteSection } from '../../db/schema.ts';
import { multilineText, nameText, plainText, textProblem } from './text.ts';
import { ALL, categorySlug } from '../portfolio.ts';

/** Section cards per tab of the Website Customization screen (001 §2). */
export const SECTION_TABS = {
  homepage: ['hero', 'what_we_do', 'who_we_work_with', 'how_we_work', 'retainer_partnerships', 'who_weve_worked_with', 'lets_connect'],
  portfolio: ['portfolio_header', 'portfolio_gallery'],
  about: ['about_header', 'about_mission_image', 'about_values'],
  services: ['services_header', 'services_section', 'services_cta'],
  contact: ['contact_header', 'contact_info'],
} as const satisfies Record<string, readonly WebsiteSection[]>;

// Fails to compile when a section of the schema is missing from the tabs.
type Listed = (typeof SECTION_TABS)[keyof typeof SECTION_TABS][number];
const _everySectionListed: Exclude<WebsiteSection, Listed> extends never ? true : false = true;
void _everySectionListed;

export const TITLE_GUIDE = 60;
export const DESCRIPTION_GUIDE = 160;

const mediaId = (label: string) =>
  z
    .number({ error: `${label} must be a media id or null` })
    .int(`${label} must be a media id or null`)
    .positive(`${label} must be a media id or null`)
    .nullable();

export const sectionBackgroundSchema = z.object({
  // Absent keeps the stored value; null clears it.
  backgroundImageId: mediaId('Background image').optional(),
  backgroundVideoId: mediaId('Background video').optional(),
});
export type SectionBackgroundInput = z.infer<typeof sectionBackgroundSchema>;

const text = (label: string, max: number) => plainText(label, max);

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}

/** An http(s) URL, or empty for none. */
const urlOrEmpty = (label: string) =>
  text(label, 500).refine((v) => v === '' || isHttpUrl(v), `${label} must be a full URL starting with http:// or https://`);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const emailOrEmpty = (label: string) => text(label, 254).refine((v) => v === '' || EMAIL.test(v), `${label} must be a valid email address`);

const phone = (label: string) =>
  text(label, 50).refine((v) => /^[+\d\s().-]*$/.test(v), `${label} may contain only digits, spaces, +, -, ( and )`);

/** The home page's What We Do grid shows the newest this-many featured items (issue 23). */
export const FEATURED_LIMIT_MIN = 3;
export const FEATURED_LIMIT_MAX = 24;
export const FEATURED_LIMIT_DEFAULT = 9;

export const brandingSchema = z.object({
  companyName: nameText('Company name', 100, { required: true }),
  showCompanyText: z.boolean({ error: 'Show company name must be true or false' }).optional(),
  logoLightImageId: mediaId('Light logo').optional(),
  logoDarkImageId: mediaId('Dark logo').optional(),
  faviconImageId: mediaId('Favicon').optional(),
  openGraphImageId: mediaId('Open Graph image').optional(),
  featuredLimit: z
    .number({ error: `Featured items on the home page must be a whole number from ${FEATURED_LIMIT_MIN} to ${FEATURED_LIMIT_MAX}` })
    .int(`Featured items on the home page must be a whole number from ${FEATURED_LIMIT_MIN} to ${FEATURED_LIMIT_MAX}`)
    .min(FEATURED_LIMIT_MIN, `Featured items on the home page must be a whole number from ${FEATURED_LIMIT_MIN} to ${FEATURED_LIMIT_MAX}`)
    .max(FEATURED_LIMIT_MAX, `Featured items on the home page must be a whole number from ${FEATURED_LIMIT_MIN} to ${FEATURED_LIMIT_MAX}`)
    .optional(),
});
export type BrandingInput = z.infer<typeof brandingSchema>;

/** Portfolio categories (issue 32): the filter's buttons, in order, after "All". */
export const MAX_CATEGORIES = 12;
export const MAX_CATEGORY_LENGTH = 40;
export const portfolioCategoriesSchema = z.object({
  categories: z
    .array(plainText('Category', MAX_CATEGORY_LENGTH, { required: true }), { error: 'categories must be a list of names' })
    .min(1, 'Keep at least one category')
    .max(MAX_CATEGORIES, `At most ${MAX_CATEGORIES} categories`)
    .superRefine((list, ctx) => {
      const seen = new Map<string, string>();
      list.forEach((name, i) => {
        const slug = categorySlug(name);
        if (!slug) ctx.addIssue({ code: 'custom', path: [i], message: `Category "${name}" needs a letter or a digit` });
        else if (slug === categorySlug(ALL)) ctx.addIssue({ code: 'custom', path: [i], message: '"All" is always first in the filter; choose another name' });
        else if (seen.has(slug)) ctx.addIssue({ code: 'custom', path: [i], message: `"${name}" is the same category as "${seen.get(slug)}"` });
        else seen.set(slug, name);
      });
    }),
});
export type PortfolioCategoriesInput = z.infer<typeof portfolioCategoriesSchema>;

export const contactInfoSchema = z.object({
  contactEmail: emailOrEmpty('Email'),
  contactPhone: phone('Phone'),
  contactAddress: multilineText('Address', 500),
  instagramUrl: urlOrEmpty('Instagram URL'),
  facebookUrl: urlOrEmpty('Facebook URL'),
  linkedinUrl: urlOrEmpty('LinkedIn URL'),
});
export type ContactInfoInput = z.infer<typeof contactInfoSchema>;

// ISO 3166-1 alpha-2 codes (officially assigned).
const COUNTRY_CODES = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
    'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO ' +
    'JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR ' +
    'MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO ' +
    'RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV ' +
    'TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);
export const isCountryCode = (v: string) => COUNTRY_CODES.has(v);

/** A coordinate: a number within ±limit, given as a number or text, stored as text; empty for none. */
const coordinate = (label: string, limit: number) =>
  z
    .union([z.string(), z.number()], { error: `${label} must be a number` })
    .transform((v) => String(v).trim())
    .refine((v) => v === '' || (/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(v) && Math.abs(Number(v)) <= limit), {
      message: `${label} must be a number between -${limit} and ${limit}`,
    });

function parseJson(v: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
}

/** Services: JSON text of a list of non-empty names. Returns the problem, or null. */
export function servicesProblem(v: string): string | null {
  const list = parseJson(v);
  if (list === undefined) return 'Services must be valid JSON, e.g. ["Corporate Video", "Music Videos"]';
  if (!Array.isArray(list)) return 'Services must be a JSON array of service names';
  const bad = list.findIndex((s) => typeof s !== 'string' || s.trim() === '');
  if (bad >= 0) return `Services item ${bad + 1} must be a non-empty text name`;
  // The names inside the JSON are text shown on the site: the same rules as any one-line field.
  for (let i = 0; i < list.length; i++) {
    const p = textProblem(list[i] as string, false);
    if (p) return `Services item ${i + 1} ${p}`;
  }
  return null;
}

/** FAQs: JSON text of a list of {question, answer} with non-empty text. */
export function faqsProblem(v: string): string | null {
  const list = parseJson(v);
  if (list === undefined) return 'FAQs must be valid JSON, e.g. [{"question": "...", "answer": "..."}]';
  if (!Array.isArray(list)) return 'FAQs must be a JSON array of {"question", "answer"} objects';
  for (let i = 0; i < list.length; i++) {
    const f = list[i] as { question?: unknown; answer?: unknown } | null;
    if (!f || typeof f !== 'object' || Array.isArray(f)) return `FAQs item ${i + 1} must be an object with question and answer`;
    if (typeof f.question !== 'string' || !f.question.trim()) return `FAQs item ${i + 1} needs a non-empty question`;
    if (typeof f.answer !== 'string' || !f.answer.trim()) return `FAQs item ${i + 1} needs a non-empty answer`;
    const extra = Object.keys(f).find((k) => k !== 'question' && k !== 'answer');
    if (extra) return `FAQs item ${i + 1} has an unknown key "${extra}"`;
    // Shown on the site and in its structured data: the rules of any other text field.
    const question = textProblem(f.question, false);
    if (question) return `FAQs item ${i + 1} question ${question}`;
    const answer = textProblem(f.answer, true);
    if (answer) return `FAQs item ${i + 1} answer ${answer}`;
  }
  return null;
}

const jsonText = (label: string, problem: (v: string) => string | null) =>
  z
    .string({ error: `${label} must be JSON text` })
    .max(20_000, `${label} must be at most 20000 characters`)
    .superRefine((v, ctx) => {
      const p = problem(v);
      if (p) ctx.addIssue({ code: 'custom', message: p });
    });

export const BUSINESS_TYPES = ['ProfessionalService', 'LocalBusiness'] as const;
export const ROBOTS_DIRECTIVES = ['index, follow', 'noindex, follow', 'index, nofollow', 'noindex, nofollow'] as const;
const ROBOTS_TOKEN = /^(all|none|index|noindex|follow|nofollow|noarchive|nosnippet|noimageindex|notranslate|max-snippet:-?\d+|max-video-preview:-?\d+|max-image-preview:(none|standard|large))$/;

export const seoSchema = z.object({
  metaTitle: text('Meta title', 200),
  metaDescription: multilineText('Meta description', 500),
  metaKeywords: text('Meta keywords', 1000),
  canonicalUrl: urlOrEmpty('Canonical URL'),
  openGraphImageId: mediaId('Open Graph image'),
  twitterImageId: mediaId('Twitter image'),
  businessName: text('Business name', 200),
  businessDescription: multilineText('Business description', 2000),
  businessType: z.enum(BUSINESS_TYPES, { error: `Business type must be one of ${BUSINESS_TYPES.join(', ')}` }),
  businessUrl: urlOrEmpty('Business URL'),
  addressLocality: text('Locality', 200),
  addressRegion: text('Region', 200),
  addressCountry: z
    .string({ error: 'Country must be a two-letter ISO 3166-1 code such as GB' })
    .trim()
    .toUpperCase()
    .refine(isCountryCode, 'Country must be a two-letter ISO 3166-1 code such as GB'),
  postalCode: text('Postal code', 20),
  streetAddress: text('Street address', 300),
  latitude: coordinate('Latitude', 90),
  longitude: coordinate('Longitude', 180),
  businessEmail: emailOrEmpty('Business email'),
  businessPhone: phone('Business phone'),
  services: jsonText('Services', servicesProblem),
  faqs: jsonText('FAQs', faqsProblem),
  enableStructuredData: z.boolean({ error: 'Structured data must be true or false' }),
  enableOpenGraph: z.boolean({ error: 'Open Graph must be true or false' }),
  enableTwitterCards: z.boolean({ error: 'Twitter cards must be true or false' }),
  robotsDirective: text('Robots directive', 200).refine(
    (v) => v !== '' && v.split(',').every((t) => ROBOTS_TOKEN.test(t.trim().toLowerCase())),
    'Robots directive must be comma-separated robots tokens such as "index, follow"',
  ),
});
export type SeoInput = z.infer<typeof seoSchema>;
/** What the form edits: the JSON payload before parsing (coordinates as text). */
export type SeoForm = z.input<typeof seoSchema>;

/** POST /api/generate-sitemap answer. */
export interface SitemapResult {
  /** Every URL in the page sitemap: the fixed pages plus the watch pages. */
  pages: number;
  /** Of those, watch pages (/portfolio/{slug}). */
  watchPages: number;
  videos: number;
  url: string;
}
