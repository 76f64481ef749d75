// Client portal payloads and shapes (001 §3, §5, §7), shared by the API and the portal islands.
import { z } from '../zod.ts';
import { mentionsField } from './mentions.ts';
import type { Playback } from './media.ts';
import { multilineText } from './text.ts';
import type { DownloadFields, Reply, VersionSummary } from './review.ts';
import { checkNoteCue, checkNoteTime, noteCueFields, noteTimeFields, type NoteCue, type NoteTime } from './notes.ts';

export const MAX_PORTAL_TEXT = 5000;
export const RATING_MIN = 1;
export const RATING_MAX = 5;
/** 'Recent Uploads' on the client dashboard (001 §9). */
export const RECENT_DAYS = 7;
/** Multiple downloads are staggered this far apart (001 §9). */
export const DOWNLOAD_STAGGER_MS = 100;

const mediaId = z.number({ error: 'mediaId must be a number' }).int('mediaId must be a whole number').positive('mediaId must be positive');

/** Required free text of the portal and of share links (trimmed, at most MAX_PORTAL_TEXT). */
export const portalText = (what: string) => multilineText(what, MAX_PORTAL_TEXT, { required: true });

export const ratingSchema = z
  .number({ error: 'Rating must be a number from 1 to 5' })
  .int('Rating must be a whole number from 1 to 5')
  .min(RATING_MIN, 'Rating must be from 1 to 5')
  .max(RATING_MAX, 'Rating must be from 1 to 5');

/** The version a note or rating is about; omitted = the current one (issue 16). */
const versionId = z.number({ error: 'versionId must be a number' }).int('versionId must be a whole number').positive('versionId must be positive').optional();

export const feedbackInputSchema = z.object({
  mediaId,
  feedbackText: portalText('Feedback text'),
  rating: ratingSchema,
  versionId,
});
export type FeedbackInput = z.infer<typeof feedbackInputSchema>;

export { MAX_TIMELINE_SECONDS } from './notes.ts';

/**
 * POST /api/client/media/{id}/timeline-notes. Times as noteTimeFields (issue 29): whole seconds
 * as the documents store them (001 §5), or the exact `timestampMs`, which wins; optional range
 * end and drawings.
 */
export const timelineNoteInputSchema = z
  .object({
    mediaId,
    ...noteTimeFields,
    noteText: portalText('Note'),
    versionId,
    ...noteCueFields,
    /** Issue 57: colleagues of the same client named in the note (they are told). */
    mentions: mentionsField,
  })
  .superRefine(checkNoteTime)
  .superRefine(checkNoteCue);
export type TimelineNoteInput = z.infer<typeof timelineNoteInputSchema>;

/**
 * Media tags as the portal reads them (001 §3): a list, or a comma-separated string as older
 * data holds it. Either way trimmed, with empty entries dropped.
 */
export function normaliseTags(value: unknown): string[] {
  const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return parts.filter((t): t is string => typeof t === 'string').map((t) => t.trim()).filter(Boolean);
}

/** A media item as a client sees it. */
export interface ClientMedia extends Playback, VersionSummary, DownloadFields {
  id: number;
  title: string;
  type: 'image' | 'video';
  url: string;
  thumbnailUrl: string | null;
  thumbnailWebpUrl: string | null;
  webpUrl: string | null;
  posterUrl: string | null;
  filename: string;
  fileSize: number;
  mimeType: string;
  tags: string[];
  projectStage: string | null;
  notes: string | null;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  createdAt: string;
  uploadedAt: string;
}

export interface ClientFeedback {
  id: number;
  mediaId: number;
  clientUsername: string;
  feedbackText: string;
  rating: number;
  createdAt: string;
  versionId: number | null;
  versionNumber: number | null;
  replies: Reply[];
}

/**
 * A note as the portal lists it: the client's own, and the studio's notes that are not internal
 * (issue 29: `source: 'staff'`, `clientUsername` is then the staff member's name).
 */
export interface ClientTimelineNote extends NoteTime {
  id: number;
  mediaId: number;
  clientUsername: string;
  /** Who wrote it: this client's login ('client') or the studio ('staff'). */
  source: 'client' | 'staff';
  timestampSeconds: number;
  noteText: string;
  createdAt: string;
  versionId: number | null;
  versionNumber: number | null;
  resolvedAt: string | null;
  replies: Reply[];
  /** The caption cue the note is pinned to (issue 54), with any wording it proposes. */
  cue: NoteCue | null;
}
