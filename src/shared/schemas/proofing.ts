// Stills proofing (issue 42): galleries staff make, what their viewers (clients in the portal,
// guests through a share link) pick and download. One definition for the endpoints and islands.
import { z } from '../zod.ts';
import { multilineText, nameText, plainText } from './text.ts';
import { shapesSchema, type Shape } from './notes.ts';
import { DEFAULT_WATERMARK_POSITION, GUEST_NAME_MAX, SHARE_NAME_MAX, SHARE_PASSWORD_MIN, WATERMARK_POSITIONS } from './share.ts';
import { UPLOAD_ID_PATTERN } from './uploads.ts';

export const DOWNLOAD_TIERS = ['off', 'web1024', 'web2048', 'highres', 'original'] as const;
export type DownloadTier = (typeof DOWNLOAD_TIERS)[number];
export const DOWNLOAD_TIER_LABELS: Record<DownloadTier, string> = {
  off: 'No downloads',
  web1024: 'Web size (1,024 px)',
  web2048: 'Web size (2,048 px)',
  highres: 'High-res',
  original: 'Original files',
};

/** The sizes a tier lets a viewer download, largest first (each tier includes the smaller ones). */
export function tierSizes(tier: DownloadTier): Exclude<DownloadTier, 'off'>[] {
  const order = ['original', 'highres', 'web2048', 'web1024'] as const;
  const from = order.indexOf(tier as (typeof order)[number]);
  return from < 0 ? [] : order.slice(from);
}

/** The long edge in pixels of a download at `size` (null: the original file as uploaded). */
export function sizeEdge(size: Exclude<DownloadTier, 'off'>, highResEdge: number): number | null {
  return size === 'web1024' ? 1024 : size === 'web2048' ? 2048 : size === 'highres' ? highResEdge : null;
}

/** Sizes that count toward a gallery's high-res cap. */
export const CAPPED_SIZES: readonly DownloadTier[] = ['highres', 'original'];

export const GALLERY_SORTS = ['capture', 'filename', 'manual'] as const;
export type GallerySort = (typeof GALLERY_SORTS)[number];
export const GALLERY_SORT_LABELS: Record<GallerySort, string> = {
  capture: 'Capture time',
  filename: 'File name',
  manual: 'Manual order',
};

export const GALLERY_TITLE_MAX = 120;
export const GALLERY_NAME_MAX = 80;
/** A gallery holds at most this many images (the grid and the API are measured at 2,000). */
export const GALLERY_IMAGES_MAX = 5000;
export const REMINDER_DAYS_MAX = 60;
export const HIGH_RES_EDGE_MIN = 2560;
export const HIGH_RES_EDGE_MAX = 8000;

const id = z.number({ error: 'must be a number' }).int().positive();
const ids = (what: string, max = GALLERY_IMAGES_MAX) =>
  z
    .array(id, { error: `Choose at least one ${what}` })
    .min(1, `Choose at least one ${what}`)
    .max(max, `At most ${max.toLocaleString('en-GB')} at a time`)
    .transform((list) => [...new Set(list)]);

const tier = z.enum(DOWNLOAD_TIERS, { error: `must be one of ${DOWNLOAD_TIERS.join(', ')}` });

/** A calendar date, YYYY-MM-DD, that exists. */
export const dateOnly = z
  .string({ error: 'must be a date (YYYY-MM-DD)' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'must be a date that exists');

export const galleryCreateSchema = z.object({
  title: nameText('Title', GALLERY_TITLE_MAX, { required: true }),
  /** Images from the library to start with (may be none: images can be uploaded next). */
  mediaIds: z
    .array(id)
    .max(GALLERY_IMAGES_MAX, `At most ${GALLERY_IMAGES_MAX.toLocaleString('en-GB')} images`)
    .default([])
    .transform((list) => [...new Set(list)]),
  sortOrder: z.enum(GALLERY_SORTS, { error: 'sortOrder must be capture, filename or manual' }).default('capture'),
});

export const gallerySettingsSchema = z
  .object({
    title: nameText('Title', GALLERY_TITLE_MAX, { required: true }),
    sortOrder: z.enum(GALLERY_SORTS, { error: 'sortOrder must be capture, filename or manual' }),
    coverMediaId: id.nullable(),
    downloadTier: tier,
    highResEdge: z
      .number({ error: 'highResEdge must be a number' })
      .int()
      .min(HIGH_RES_EDGE_MIN, `highResEdge must be at least ${HIGH_RES_EDGE_MIN} px`)
      .max(HIGH_RES_EDGE_MAX, `highResEdge must be at most ${HIGH_RES_EDGE_MAX} px`),
    highResCap: z.number({ error: 'highResCap must be a number' }).int().min(1, 'highResCap must be at least 1').max(100_000).nullable(),
    /** '' or null: no PIN. */
    downloadPin: z
      .string()
      .regex(/^(\d{4})?$/, 'The download PIN is four digits')
      .nullable()
      .transform((p) => (p ? p : null)),
    /** The last day the gallery opens (it closes at the end of that day, UK time); null: never. */
    expiresOn: dateOnly.nullable(),
    reminderDays: z.number({ error: 'reminderDays must be a number' }).int().min(1, 'reminderDays must be at least 1').max(REMINDER_DAYS_MAX, `reminderDays must be at most ${REMINDER_DAYS_MAX}`).nullable(),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'Send at least one setting');
export type GallerySettingsInput = z.output<typeof gallerySettingsSchema>;

export const galleryImagesAddSchema = z.object({ mediaIds: ids('image'), setId: id.nullable().default(null) });
export const galleryImagesMoveSchema = z.object({ imageIds: ids('image'), setId: id.nullable() });
export const galleryImagesRemoveSchema = z.object({ imageIds: ids('image') });
/** The manual order: every image of the gallery, in the new order. */
export const galleryOrderSchema = z.object({ imageIds: ids('image') });
export const galleryUploadFinishSchema = z.object({
  uploadId: z.string({ error: 'uploadId is required' }).regex(UPLOAD_ID_PATTERN, 'Unknown upload'),
  setId: id.nullable().default(null),
});

export const gallerySetSchema = z.object({
  name: nameText('Name', GALLERY_NAME_MAX, { required: true }),
  /** null: as the gallery. */
  downloadTier: tier.nullable().default(null),
});
export const gallerySetUpdateSchema = gallerySetSchema.partial().refine((v) => Object.keys(v).length > 0, 'Send at least one field');

const listFields = {
  name: nameText('Name', GALLERY_NAME_MAX, { required: true }),
  minCount: z.number({ error: 'minCount must be a number' }).int().min(0, 'minCount must be 0 or more').max(GALLERY_IMAGES_MAX).default(0),
  /** null: no upper bound. */
  maxCount: z.number({ error: 'maxCount must be a number' }).int().min(1, 'maxCount must be at least 1').max(GALLERY_IMAGES_MAX).nullable().default(null),
};
export const selectionListSchema = z
  .object(listFields)
  .refine((l) => l.maxCount == null || l.minCount <= l.maxCount, { message: 'The minimum must not be above the maximum', path: ['minCount'] });
export const selectionListUpdateSchema = z
  .object(listFields)
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'Send at least one field');

export const galleryClientsSchema = z.object({
  clientIds: z
    .array(id)
    .max(500)
    .transform((list) => [...new Set(list)]),
});

/** A share link to the gallery: the link rules of share links (password, expiry, log). */
export const galleryLinkSchema = z.object({
  name: nameText('Name', SHARE_NAME_MAX, { required: true }),
  password: z
    .string()
    .max(200, 'Password must be at most 200 characters')
    .refine((p) => p === '' || p.length >= SHARE_PASSWORD_MIN, `Password must be at least ${SHARE_PASSWORD_MIN} characters`)
    .default(''),
  expiresAt: z
    .string()
    .pipe(z.iso.datetime({ offset: true, error: 'expiresAt must be a date and time' }))
    .nullable()
    .default(null),
  /** Comments and drawings on a still. */
  allowComment: z.boolean().default(true),
  /** Watermarked proofs: the link shows and gives only its own marked copies (2,048 px). */
  watermark: z.boolean().default(false),
  watermarkText: plainText('Watermark text', SHARE_NAME_MAX).default(''),
  watermarkPosition: z.enum(WATERMARK_POSITIONS, { error: 'Unknown watermark position' }).default(DEFAULT_WATERMARK_POSITION),
  watermarkOpacity: z.number({ error: 'watermarkOpacity must be a number' }).int().min(10, 'watermarkOpacity must be from 10 to 100').max(100, 'watermarkOpacity must be from 10 to 100').default(60),
});

export const markSchema = z
  .object({
    heart: z.boolean({ error: 'heart must be true or false' }),
    stars: z.number({ error: 'stars must be a number' }).int().min(0, 'stars must be 0 to 5').max(5, 'stars must be 0 to 5'),
  })
  .partial()
  .refine((v) => v.heart !== undefined || v.stars !== undefined, 'Send heart or stars');

export const pinSchema = z.object({ pin: z.string({ error: 'Enter the four-digit PIN' }).regex(/^\d{4}$/, 'The PIN is four digits') });
export const reopenSchema = z.object({ note: multilineText('Note', 1000, { required: true }) });
export const viewerNameSchema = z.object({
  name: nameText('Name', GUEST_NAME_MAX, { required: true }),
  /** Optional: where the reminder goes before the gallery expires. */
  email: z
    .string()
    .trim()
    .max(254)
    .refine((e) => e === '' || /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(e), 'Enter a valid email address, or leave it empty')
    .default(''),
});
export const stillNoteSchema = z.object({
  text: multilineText('Note', 5000, { required: true }),
  shapes: shapesSchema.default([]),
});

// ---- Answers -----------------------------------------------------------------------------------

export interface GallerySummary {
  id: number;
  title: string;
  coverUrl: string | null;
  imageCount: number;
  clients: { id: number; name: string }[];
  links: number;
  expiresOn: string | null;
  expired: boolean;
  submitted: number;
  createdAt: string;
}

/** A gallery in a client's portal list. */
export interface ClientGallerySummary {
  id: number;
  title: string;
  coverUrl: string | null;
  imageCount: number;
  expiresOn: string | null;
  expired: boolean;
}

export interface GallerySet {
  id: number;
  name: string;
  /** null: as the gallery. */
  downloadTier: DownloadTier | null;
}

export interface SelectionList {
  id: number;
  name: string;
  minCount: number;
  maxCount: number | null;
}

export interface StaffGalleryImage {
  id: number;
  mediaId: number;
  filename: string;
  title: string;
  width: number;
  height: number;
  setId: number | null;
  position: number;
  capturedAt: string | null;
  camera: string | null;
  lens: string | null;
  thumbUrl: string | null;
  /** The display sizes are made (job queue). */
  ready: boolean;
  raw: boolean;
}

export interface GalleryLinkSummary {
  id: number;
  name: string;
  hasPassword: boolean;
  watermark: boolean;
  expiresAt: string | null;
  state: 'active' | 'expired' | 'revoked';
  allowComment: boolean;
  opens: number;
  createdAt: string;
}

export interface GalleryDetail {
  id: number;
  title: string;
  sortOrder: GallerySort;
  coverMediaId: number | null;
  downloadTier: DownloadTier;
  highResEdge: number;
  highResCap: number | null;
  downloadPin: string | null;
  expiresOn: string | null;
  expiresAt: string | null;
  expired: boolean;
  reminderDays: number | null;
  sets: GallerySet[];
  lists: SelectionList[];
  clients: { id: number; name: string }[];
  images: StaffGalleryImage[];
  links: GalleryLinkSummary[];
}

export interface ViewerList extends SelectionList {
  count: number;
  submittedAt: string | null;
  reopenedAt: string | null;
  reopenNote: string | null;
}

export interface ViewerImage {
  id: number;
  name: string;
  width: number;
  height: number;
  setId: number | null;
  capturedAt: string | null;
  camera: string | null;
  lens: string | null;
  /** Display sizes made: srcset of AVIF/WebP; else the one small thumbnail. */
  ready: boolean;
  heart: boolean;
  stars: number;
  /** The lists this viewer picked it into. */
  picks: number[];
  /** The sizes this viewer may download, largest first (after the PIN, within the cap). */
  sizes: Exclude<DownloadTier, 'off'>[];
}

export interface ViewerNote {
  id: number;
  imageId: number;
  author: string;
  text: string;
  shapes: Shape[];
  createdAt: string;
  mine: boolean;
}

export interface ViewerGallery {
  id: number;
  title: string;
  studio: string;
  coverImageId: number | null;
  expiresOn: string | null;
  expiresAt: string | null;
  sets: GallerySet[];
  lists: ViewerList[];
  images: ViewerImage[];
  notes: ViewerNote[];
  /** `${fileBase}/${imageId}/${variant}` is an image's file. */
  fileBase: string;
  /** `${zipUrl}?size=…&set=…|list=…` streams a ZIP. */
  zipUrl: string;
  highResEdge: number;
  downloads: { pinRequired: boolean; pinOk: boolean; highResCap: number | null; highResUsed: number };
  viewer: { name: string; needsName: boolean; email: string; guest: boolean };
  canComment: boolean;
  /**
   * A watermarked link: every picture is the link's own marked copy (`marked.jpg`, at most
   * 2,048 px), the only file it shows or gives; `ready` says whether it is made yet.
   */
  watermarked: boolean;
}

export interface SelectionSummary {
  id: number;
  listId: number;
  listName: string;
  minCount: number;
  maxCount: number | null;
  viewerId: number;
  viewerName: string;
  /** "Client Acme Ltd" or "Link “For the couple”". */
  via: string;
  count: number;
  hearts: number;
  submittedAt: string | null;
  reopenedAt: string | null;
  reopenNote: string | null;
}

export interface GalleryDownloadRow {
  id: number;
  at: string;
  who: string;
  via: string;
  fileName: string;
  tier: DownloadTier;
  zip: boolean;
}

/** What an expired gallery's page and API say, with the studio's contact details. */
export const GALLERY_EXPIRED = (on: string) => `This gallery expired on ${on}. Contact the studio if you need more time.`;
export const PIN_NEEDED = 'Enter the download PIN the studio gave you to download.';
