// Media payloads (001 §5, §7). One definition serves the server endpoints and the islands.
import { z } from '../zod.ts';
import type { Reply, VersionSummary } from './review.ts';
import { UPLOAD_ID_PATTERN } from './uploads.ts';
import type { Playback } from './playback.ts';
import { multilineText, plainText } from './text.ts';
import type { NoteCue, NoteTime } from './notes.ts';
import type { NoteTask } from './tasks.ts';

// Kept importable from here as before; they live lower down so review.ts can use them without importing this file (issue 34).
export { UPLOAD_ID_PATTERN } from './uploads.ts';
export { PROCESSING_STATUSES, playbackSchema, renditionSchema, type Playback, type ProcessingStatus, type Rendition } from './playback.ts';

import { PROJECT_STAGES } from '../stages.ts';

export const MAX_UPLOAD_MB = 2500;
export const TITLE_MAX = 200;
export const NOTES_MAX = 5000;
export const TAG_MAX = 50;
export const TAGS_MAX = 50;

/** Splits comma-separated tag text, trims, drops blanks and case-insensitive duplicates. */
export function parseTagText(text: string): string[] {
  return normaliseTags(text.split(','));
}

export function normaliseTags(tags: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out;
}

const title = plainText('Title', TITLE_MAX, { required: true });
const notes = multilineText('Notes', NOTES_MAX);
// Typed as a string: the dialogs send what their select holds, and the server checks it here.
// 'final', the detail Edit tab's stage in the documents (001), is still taken from API callers
// and stored as 'completed', its name in the one list (issue 53, docs/media-and-video.md).
const stage = z.union([z.literal('final').transform((): string => 'completed'), z.enum(PROJECT_STAGES as readonly string[] as [string, ...string[]], { error: 'Unknown project stage' })], {
  error: 'Unknown project stage',
});
const tagList = z
  .array(plainText('Each tag', TAG_MAX))
  .transform(normaliseTags)
  .refine((t) => t.length <= TAGS_MAX, `At most ${TAGS_MAX} tags`);
const clientId = z.number().int().positive();

/** PUT /api/media/{id} as JSON: any subset; null clears stage and client. */
export const mediaUpdateSchema = z
  .object({
    title,
    projectStage: stage.nullable(),
    notes: notes.nullable(),
    clientId: clientId.nullable(),
    tags: tagList,
    isFeatured: z.boolean(),
    showInPortfolio: z.boolean(),
  })
  .partial()
  .strict();
export type MediaUpdate = z.infer<typeof mediaUpdateSchema>;

// Multipart sends everything as text: '' means "none" for stage and client.
const formBool = z
  .enum(['true', 'false', 'on', 'off', '1', '0', ''], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === 'on' || v === '1');
const formStage = z.union([z.literal('').transform(() => null), z.literal('none').transform(() => null), stage]);
const formClientId = z.union([
  z.literal('').transform(() => null),
  z.literal('null').transform(() => null),
  z.string().regex(/^[1-9]\d{0,15}$/, 'Unknown client').transform(Number),
]);
const formTags = z
  .string()
  .max(TAGS_MAX * (TAG_MAX + 2))
  .transform(parseTagText)
  .pipe(tagList);

const formFields = {
  title,
  projectStage: formStage,
  notes,
  clientId: formClientId,
  tags: formTags,
  isFeatured: formBool,
  showInPortfolio: formBool,
};

/** Text fields of POST /api/media (multipart). */
export const mediaUploadFieldsSchema = z.object({
  ...formFields,
  projectStage: formStage.optional().transform((v) => v ?? null),
  notes: notes.optional().transform((v) => v ?? ''),
  clientId: formClientId.optional().transform((v) => v ?? null),
  tags: formTags.optional().transform((v) => v ?? []),
  isFeatured: formBool.optional().transform((v) => v ?? false),
  showInPortfolio: formBool.optional().transform((v) => v ?? false),
});
export type MediaUploadFields = z.infer<typeof mediaUploadFieldsSchema>;

/**
 * POST /api/media as JSON: finishes a resumable upload. The same fields as the multipart
 * form with JSON types (booleans, numbers, null for "none"); tags as a list or as the
 * form's comma-separated text. Parses to the same MediaUploadFields.
 */
export const mediaFinishSchema = z
  .object({
    uploadId: z.string({ error: 'uploadId is required' }).regex(UPLOAD_ID_PATTERN, 'Unknown upload'),
    title,
    projectStage: stage.nullable().optional().transform((v) => v ?? null),
    notes: notes.nullable().optional().transform((v) => v ?? ''),
    clientId: clientId.nullable().optional().transform((v) => v ?? null),
    tags: z.union([tagList, formTags], { error: 'must be a list of tags' }).optional().transform((v) => v ?? []),
    isFeatured: z.boolean({ error: 'must be true or false' }).optional().transform((v) => v ?? false),
    showInPortfolio: z.boolean({ error: 'must be true or false' }).optional().transform((v) => v ?? false),
  })
  .strict();
export type MediaFinish = z.infer<typeof mediaFinishSchema>;

/** Text fields of PUT /api/media/{id} as multipart (with a posterFile): any subset. */
export const mediaUpdateFormSchema = z.object(formFields).partial();

/** An assigned client as listed with each media item. */
export interface AssignedClient {
  id: number;
  name: string;
  email: string;
}

/** A media item as the admin API returns it; counts are the current version's. */
export interface AdminMedia extends Playback, VersionSummary {
  id: number;
  title: string;
  /** The watch page's address, /portfolio/{slug} (public only while featured or in the portfolio). */
  slug: string | null;
  type: 'image' | 'video';
  url: string;
  posterUrl: string | null;
  thumbnailUrl: string | null;
  thumbnailWebpUrl: string | null;
  webpUrl: string | null;
  filename: string;
  fileSize: number;
  mimeType: string;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  isFeatured: boolean;
  showInPortfolio: boolean;
  tags: string[];
  projectStage: string | null;
  notes: string | null;
  clientId: number | null;
  uploadedBy: string | null;
  createdAt: string;
  uploadedAt: string;
  assignedClients: AssignedClient[];
  /** Clients' feedback and timeline notes on the current version (issue 16). */
  feedbackCount: number;
  noteCount: number;
  /** The same on earlier versions (issue 53): a v2 with no notes yet is not a v1 without any. */
  earlierFeedbackCount: number;
  earlierNoteCount: number;
}

export interface AdminFeedback {
  id: number;
  mediaId: number;
  mediaTitle: string;
  /** null for a share-link visitor's feedback. */
  clientUserId: number | null;
  /** The author: the client's login, or the guest name for a share link's feedback. */
  clientUsername: string;
  /** Issue 29, one thread: 'client', or 'link' (a share-link visitor: `guest` true, ids are share comments'). */
  source: 'client' | 'link';
  guest: boolean;
  guestName: string | null;
  linkName: string | null;
  feedbackText: string;
  rating: number;
  createdAt: string;
  /** The version it was given on (issue 16). */
  versionId: number | null;
  versionNumber: number | null;
  replies: Reply[];
}

export interface AdminTimelineNote extends NoteTime {
  id: number;
  mediaId: number;
  mediaTitle: string;
  /** null for a staff note or a share-link visitor's note. */
  clientUserId: number | null;
  /** The author: the client's login, the staff member's name, or the guest name. */
  clientUsername: string;
  /**
   * Issue 29, one thread: who wrote it. 'client' and 'staff' notes share ids (timeline_notes);
   * 'link' notes are share comments (`guest` true): reply and resolve them with `source: 'link'`.
   */
  source: 'client' | 'staff' | 'link';
  guest: boolean;
  guestName: string | null;
  linkName: string | null;
  /** Staff notes only: hidden from clients and link visitors. */
  internal: boolean;
  timestampSeconds: number;
  noteText: string;
  createdAt: string;
  versionId: number | null;
  versionNumber: number | null;
  /** When staff marked it resolved (null = open). */
  resolvedAt: string | null;
  replies: Reply[];
  /** The caption cue the note is pinned to (issue 54), with any wording it proposes. */
  cue: NoteCue | null;
  /** The note as a task for the studio (issue 57): staff lists only. */
  task: NoteTask | null;
}
