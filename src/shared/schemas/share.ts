// Share links (issue 17): what staff send, what a visitor without an account may do with a
// link, and the shapes both sides read. One definition for the endpoints and the islands.
import { z } from '../zod.ts';
import type { Playback } from './media.ts';
import { decisionFields, noteWhenChangesRequested, type ApprovalStatus } from './review.ts';
import { portalText, ratingSchema } from './portal.ts';
import { checkNoteCue, checkNoteTime, noteCueFields, noteTimeFields, type NoteCue, type Shape } from './notes.ts';
import { nameText, plainText } from './text.ts';

export const SHARE_DOWNLOADS = ['none', 'preview', 'original'] as const;
export type ShareDownload = (typeof SHARE_DOWNLOADS)[number];
export const SHARE_DOWNLOAD_LABELS: Record<ShareDownload, string> = {
  none: 'No downloads',
  preview: 'Preview only',
  original: 'Original files',
};

export const WATERMARK_POSITIONS = ['top-left', 'top-right', 'bottom-left', 'bottom-right', 'center'] as const;
export type WatermarkPosition = (typeof WATERMARK_POSITIONS)[number];
export const WATERMARK_POSITION_LABELS: Record<WatermarkPosition, string> = {
  'top-left': 'Top left',
  'top-right': 'Top right',
  'bottom-left': 'Bottom left',
  'bottom-right': 'Bottom right',
  center: 'Centre',
};

export const SHARE_NAME_MAX = 120;
export const SHARE_ITEMS_MAX = 200;
export const SHARE_PASSWORD_MIN = 6;
export const GUEST_NAME_MAX = 80;
/** Links live at most a year; staff pick a date, or none for "until revoked". */
export const SHARE_EXPIRY_MAX_DAYS = 365;

/**
 * "Preview - {name}" unless staff typed their own text; a name that already says "preview"
 * ("Brand film preview") is used as it is, so the frame never reads "Preview - … preview".
 */
export function watermarkText(custom: string, linkName: string): string {
  const own = custom.trim();
  if (own) return own;
  const name = linkName.trim();
  return /\bpreviews?\b/i.test(name) ? name : `Preview - ${name}`;
}

/**
 * Where a new link's watermark goes unless staff pick: top right, clear of the player's
 * controls along the bottom (issue 32). The database column keeps its old default
 * ('bottom-right', migration 0012) for rows written without a position; every new link is
 * made through the API with this default, so existing links keep theirs.
 */
export const DEFAULT_WATERMARK_POSITION: WatermarkPosition = 'top-right';

/**
 * A link's settings, one definition for making (POST) and editing (PATCH /api/share-links/{id},
 * issue 32) so both are validated alike.
 */
const linkFields = {
  name: nameText('Name', SHARE_NAME_MAX, { required: true }),
  mediaIds: z
    .array(z.number().int().positive(), { error: 'Choose at least one item' })
    .min(1, 'Choose at least one item')
    .max(SHARE_ITEMS_MAX, `A link can hold at most ${SHARE_ITEMS_MAX} items`)
    .transform((ids) => [...new Set(ids)]),
  /** '' = no password. */
  password: z
    .string()
    .max(200, 'Password must be at most 200 characters')
    .refine((p) => p === '' || p.length >= SHARE_PASSWORD_MIN, `Password must be at least ${SHARE_PASSWORD_MIN} characters`),
  /** ISO date-time; null = until revoked. */
  expiresAt: z
    .string()
    .pipe(z.iso.datetime({ offset: true, error: 'expiresAt must be a date and time' }))
    .nullable(),
  allowComment: z.boolean(),
  allowApprove: z.boolean(),
  download: z.enum(SHARE_DOWNLOADS, { error: 'download must be none, preview or original' }),
  /** Issue 30: downloads open only once the item's current version is approved. */
  downloadsAfterApproval: z.boolean({ error: 'downloadsAfterApproval must be true or false' }),
  watermark: z.boolean(),
  watermarkText: plainText('Watermark text', SHARE_NAME_MAX),
  watermarkPosition: z.enum(WATERMARK_POSITIONS, { error: 'Unknown watermark position' }),
  watermarkOpacity: z
    .number({ error: 'watermarkOpacity must be a number' })
    .int('watermarkOpacity must be a whole number')
    .min(10, 'watermarkOpacity must be from 10 to 100')
    .max(100, 'watermarkOpacity must be from 10 to 100'),
};

export const WATERMARK_ORIGINAL_MESSAGE = 'A watermarked link cannot offer the original files';

/** POST /api/share-links. */
export const shareLinkCreateSchema = z
  .object({
    name: linkFields.name,
    mediaIds: linkFields.mediaIds,
    password: linkFields.password.optional().default(''),
    expiresAt: linkFields.expiresAt.optional().default(null),
    allowComment: linkFields.allowComment.optional().default(false),
    allowApprove: linkFields.allowApprove.optional().default(false),
    download: linkFields.download.optional().default('none'),
    downloadsAfterApproval: linkFields.downloadsAfterApproval.optional().default(false),
    watermark: linkFields.watermark.optional().default(false),
    watermarkText: linkFields.watermarkText.optional().default(''),
    watermarkPosition: linkFields.watermarkPosition.optional().default(DEFAULT_WATERMARK_POSITION),
    watermarkOpacity: linkFields.watermarkOpacity.optional().default(60),
  })
  .strict()
  .refine((v) => !(v.watermark && v.download === 'original'), {
    message: WATERMARK_ORIGINAL_MESSAGE,
    path: ['download'],
  });
export type ShareLinkCreate = z.input<typeof shareLinkCreateSchema>;

/**
 * PATCH /api/share-links/{id}: any of the same fields, each checked as when making a link;
 * a field left out stays as it is. `password: ''` removes the password. (Watermark and original
 * downloads together are refused on the merged result, on the server.)
 */
export const shareLinkUpdateSchema = z
  .object({
    name: linkFields.name.optional(),
    mediaIds: linkFields.mediaIds.optional(),
    password: linkFields.password.optional(),
    expiresAt: linkFields.expiresAt.optional(),
    allowComment: linkFields.allowComment.optional(),
    allowApprove: linkFields.allowApprove.optional(),
    download: linkFields.download.optional(),
    downloadsAfterApproval: linkFields.downloadsAfterApproval.optional(),
    watermark: linkFields.watermark.optional(),
    watermarkText: linkFields.watermarkText.optional(),
    watermarkPosition: linkFields.watermarkPosition.optional(),
    watermarkOpacity: linkFields.watermarkOpacity.optional(),
  })
  .strict()
  .refine((v) => !(v.watermark && v.download === 'original'), {
    message: WATERMARK_ORIGINAL_MESSAGE,
    path: ['download'],
  });
export type ShareLinkUpdate = z.input<typeof shareLinkUpdateSchema>;

/** POST /api/share-links/{id}/address and /new-address: the link's address. */
export interface ShareLinkAddress {
  id: number;
  url: string;
}

/** POST /api/share/{token}/unlock. */
export const shareUnlockSchema = z.object({ password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200) }).strict();

const guestName = nameText('Name', GUEST_NAME_MAX).optional();

/** PUT /api/share/{token}/name: the guest name, typed once. */
export const shareGuestNameSchema = z
  .object({ name: nameText('Name', GUEST_NAME_MAX, { required: true }) })
  .strict();

/** POST /api/share/{token}/media/{id}/feedback. */
export const shareFeedbackSchema = z
  .object({
    name: guestName,
    text: portalText('Feedback text'),
    rating: ratingSchema,
  })
  .strict();

/** POST /api/share/{token}/media/{id}/timeline-notes (times and drawings: noteTimeFields, issue 29). */
export const shareNoteSchema = z
  .object({
    name: guestName,
    text: portalText('Note'),
    ...noteTimeFields,
    ...noteCueFields,
  })
  .strict()
  .superRefine(checkNoteTime)
  .superRefine(checkNoteCue);

/** PUT /api/share/{token}/media/{id}/approval. */
export const shareApprovalSchema = z
  .object({
    name: guestName,
    ...decisionFields,
  })
  .strict()
  .refine(...noteWhenChangesRequested);

/** A link as staff see it in the list (never its address: that takes an explicit copy call). */
export interface ShareLinkSummary {
  id: number;
  name: string;
  /** A link to a proofing gallery (issue 42) shows that gallery instead of chosen items. */
  gallery: { id: number; title: string } | null;
  hasPassword: boolean;
  expiresAt: string | null;
  revokedAt: string | null;
  /** 'active', 'expired' or 'revoked', as of the answer. */
  state: 'active' | 'expired' | 'revoked';
  allowComment: boolean;
  allowApprove: boolean;
  download: ShareDownload;
  /** Downloads open only once each item's current version is approved (issue 30). */
  downloadsAfterApproval: boolean;
  watermark: boolean;
  watermarkText: string;
  watermarkPosition: WatermarkPosition;
  watermarkOpacity: number;
  items: { id: number; title: string; type: 'image' | 'video' }[];
  createdBy: string | null;
  createdAt: string;
  opens: number;
  lastOpenedAt: string | null;
  /** Whether its address can be copied again (false for links made before issue 32). */
  addressKept: boolean;
}

/** The answer to creating a link: the only time its address is given. */
export interface ShareLinkCreated extends ShareLinkSummary {
  url: string;
}

export interface ShareLogEntry {
  id: number;
  at: string;
  action: string;
  ip: string | null;
  guestName: string;
  mediaTitle: string | null;
  detail: string;
}

/** GET /api/share-links/{id}/log[?cursor=]: one page, newest first. */
export interface ShareLogPage {
  entries: ShareLogEntry[];
  /** Pass back as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export const shareLogQuery = z.object({
  cursor: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, 'cursor is not valid')
    .transform(Number)
    .optional(),
});

export interface ShareComment {
  id: number;
  mediaId: number;
  versionNumber: number | null;
  guestName: string;
  kind: 'feedback' | 'note';
  rating: number | null;
  timestampSeconds: number | null;
  text: string;
  createdAt: string;
  /** Staff lists only: which link it came through. */
  linkName?: string;
  /** Notes (issue 29): the exact time, range end and drawings; null / [] for feedback. */
  timestampMs: number | null;
  endMs: number | null;
  shapes: Shape[];
  /** Staff resolved it (notes); null = open. */
  resolvedAt: string | null;
  /** 'link' for a visitor's comment; 'staff' for a studio note shown to the link (never an internal one). */
  source: 'link' | 'staff';
  /** The caption cue a note is pinned to (issue 54), with any wording it proposes. */
  cue?: NoteCue | null;
}

/** One item as a link visitor sees it: only the files the link allows. */
export interface ShareItem extends Playback {
  id: number;
  title: string;
  type: 'image' | 'video';
  version: number;
  /** The current version's id (a live review session names the version it shows by it). */
  versionId: number;
  posterUrl: string | null;
  thumbnailUrl: string | null;
  /** The image to show (images), watermarked when the link is. */
  imageUrl: string | null;
  /** null when the link allows no download (or the preview is not made yet, or downloads wait for approval). */
  downloadUrl: string | null;
  /** Why the download is not offered yet (the link's downloads wait for approval, issue 30); null otherwise. */
  downloadBlockedReason: string | null;
  durationSeconds: number | null;
  frameRate: number | null;
  /** Watermarked links: the preview is still being made. */
  previewPending: boolean;
  approval: { status: ApprovalStatus; by: string | null; at: string | null; note: string | null; locked: boolean };
}

/** GET /api/share/{token}. */
export interface ShareView {
  name: string;
  guestName: string;
  allowComment: boolean;
  allowApprove: boolean;
  download: ShareDownload;
  downloadsAfterApproval: boolean;
  watermark: boolean;
  expiresAt: string | null;
  items: ShareItem[];
  comments: ShareComment[];
}
