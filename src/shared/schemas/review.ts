// Review workflow payloads (issue 16): version stacks, approval per version, replies and
// resolved timeline notes. One definition for the endpoints and the islands.
import { z } from '../zod.ts';
import { mentionsField } from './mentions.ts';
import { UPLOAD_ID_PATTERN } from './uploads.ts';
import type { Playback } from './playback.ts';
import { multilineText } from './text.ts';
import { checkNoteCue, checkNoteTime, noteCueFields, noteTimeFields } from './notes.ts';

export const APPROVAL_STATUSES = ['in_review', 'approved', 'changes_requested'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export const APPROVAL_LABELS: Record<ApprovalStatus, string> = {
  in_review: 'In review',
  approved: 'Approved',
  changes_requested: 'Changes requested',
};

/** The staff media list filter (issue 16). */
export const APPROVAL_FILTERS = [
  { value: 'awaiting', label: 'Awaiting approval' },
  { value: 'changes_requested', label: 'Changes requested' },
  { value: 'approved', label: 'Approved' },
  // Issue 57: review rounds (per staff user, from /api/rounds/mine).
  { value: 'waiting_on_me', label: 'Waiting on me' },
  { value: 'overdue', label: 'Review overdue' },
] as const;

export const REPLY_MAX = 5000;

/** POST /api/media/{id}/versions: finishes a resumable upload as the item's next version. */
export const versionFinishSchema = z
  .object({ uploadId: z.string({ error: 'uploadId is required' }).regex(UPLOAD_ID_PATTERN, 'Unknown upload') })
  .strict();

/**
 * A decision and its note: a client's in the portal, or a share-link visitor's. `version` is
 * the version they were looking at, required (issue 31): a decision is refused (409) when a
 * newer one has arrived, so nobody approves a cut they never saw.
 */
export const decisionFields = {
  status: z.enum(['approved', 'changes_requested'], { error: 'status must be "approved" or "changes_requested"' }),
  note: multilineText('Note', REPLY_MAX).optional().default(''),
  version: z.number({ error: 'version is required: the number of the version you looked at' }).int('version must be a whole number').positive('version must be 1 or more'),
};
/** "Changes requested" needs a note saying what. */
export const noteWhenChangesRequested: [(v: { status: string; note: string }) => boolean, { message: string; path: string[] }] = [
  (v) => v.status !== 'changes_requested' || v.note.length > 0,
  { message: 'A note is required when requesting changes', path: ['note'] },
];

/** PUT /api/client/media/{id}/approval: a decision on the current version. */
export const approvalInputSchema = z
  .object({
    ...decisionFields,
  })
  .strict()
  .refine(...noteWhenChangesRequested);
export type ApprovalInput = z.infer<typeof approvalInputSchema>;

/** PUT /api/media/{id}/versions/{n}/lock. */
export const approvalLockSchema = z.object({ locked: z.boolean({ error: 'locked must be true or false' }) }).strict();

/** POST .../replies. */
export const replyInputSchema = z
  .object({
    text: multilineText('Reply', REPLY_MAX, { required: true }),
  })
  .strict();

/**
 * Which table a staff reply or resolution is about (issue 29, one thread): a client's feedback
 * or note, or a share-link visitor's comment. Omitted = 'client' (the ids before issue 29).
 */
export const THREAD_SOURCES = ['client', 'link'] as const;
const threadSource = z.enum(THREAD_SOURCES, { error: 'source must be "client" or "link"' }).optional().default('client');

/** POST /api/admin/media/{feedback|timeline-notes}/{id}/replies (staff). */
export const staffReplyInputSchema = z
  .object({
    text: multilineText('Reply', REPLY_MAX, { required: true }),
    source: threadSource,
  })
  .strict();

/** Replies under a timeline note may name people (issue 57): the client's and the staff's. */
export const noteReplyInputSchema = replyInputSchema.extend({ mentions: mentionsField }).strict();
export const staffNoteReplyInputSchema = staffReplyInputSchema.extend({ mentions: mentionsField }).strict();

/** PUT /api/admin/media/timeline-notes/{id}/resolved. */
export const resolveInputSchema = z
  .object({ resolved: z.boolean({ error: 'resolved must be true or false' }), source: threadSource })
  .strict();

/** POST /api/media/{id}/timeline-notes: a staff note on a version (issue 29). */
export const staffNoteInputSchema = z
  .object({
    ...noteTimeFields,
    text: multilineText('Note', REPLY_MAX, { required: true }),
    /** The version it is about; omitted = the current one. */
    versionId: z.number({ error: 'versionId must be a number' }).int('versionId must be a whole number').positive('versionId must be positive').optional(),
    /** Internal notes are for staff only: never shown to clients or link visitors, nor in their emails. */
    internal: z.boolean({ error: 'internal must be true or false' }).optional().default(false),
    ...noteCueFields,
    /** Issue 57: people named in the note (staff who see the library, the item's client logins); they are told. */
    mentions: mentionsField,
  })
  .strict()
  .superRefine(checkNoteTime)
  .superRefine(checkNoteCue);

/** POST /api/admin/media/timeline-notes/{id}/accept-proposal: a note's proposed cue wording into its track. */
export const acceptProposalSchema = z.object({ source: threadSource }).strict();

export interface Reply {
  id: number;
  author: string;
  /** Who wrote it: the studio or the client. */
  by: 'staff' | 'client';
  text: string;
  createdAt: string;
}

export interface Approval {
  status: ApprovalStatus;
  note: string | null;
  /** The client user's name who decided, and when. */
  by: string | null;
  at: string | null;
  locked: boolean;
}

/** One version of an item as staff and assigned clients see it. */
/**
 * Issue 30: what a client or link set to "downloads wait for approval" is told, on the buttons and
 * in the 403 of every download request, until the item's current version is approved.
 */
export const DOWNLOADS_AFTER_APPROVAL_MESSAGE = 'Downloads open once this version is approved.';

/** The download fields every item or version a client or visitor is shown carries (issue 30). */
export interface DownloadFields {
  /** The address to download from; null when there is none, or while downloads wait for approval. */
  downloadUrl: string | null;
  /** Why there is no download yet (downloads wait for approval); null otherwise. */
  downloadBlockedReason: string | null;
}

/** `url` asked for as a download (the delivery route then answers with Content-Disposition). */
export function downloadHref(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}download=1`;
}

export interface MediaVersion extends Playback, DownloadFields {
  id: number;
  number: number;
  current: boolean;
  url: string;
  /** Images: the full-size WebP (what the dialog shows; the original is a download). */
  webpUrl: string | null;
  posterUrl: string | null;
  thumbnailUrl: string | null;
  filename: string;
  fileSize: number;
  mimeType: string;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  /** Frames per second and the source's start timecode (ffprobe), for SMPTE timecodes. */
  frameRate: number | null;
  startTimecode: string | null;
  uploadedBy: string | null;
  createdAt: string;
  approval: Approval;
  feedbackCount: number;
  noteCount: number;
}

/** Fields added to every admin and portal media item. */
export interface VersionSummary {
  version: number;
  versionCount: number;
  approvalStatus: ApprovalStatus;
  approvalLocked: boolean;
}

/** SMPTE HH:MM:SS:FF for `seconds` at `fps`, offset by a start timecode; drop-frame rates use ';'. */
export function smpteTimecode(seconds: number, fps: number | null, start: string | null = null): string | null {
  if (!fps || !Number.isFinite(fps) || fps <= 0) return null;
  const nominal = Math.round(fps);
  const drop = Math.abs(fps - nominal * (1000 / 1001)) < 0.01 && (nominal === 30 || nominal === 60);
  let frames = Math.floor(seconds * fps + 1e-6);
  const dropN = nominal === 60 ? 4 : 2;
  const m = start ? /^(\d{1,2})[:;.](\d{2})[:;.](\d{2})[:;.](\d{2})$/.exec(start.trim()) : null;
  if (m) {
    const minutes = Number(m[1]) * 60 + Number(m[2]);
    frames += (minutes * 60 + Number(m[3])) * nominal + Number(m[4]);
    // A drop-frame label skips frame numbers: the frames it names are fewer than it reads.
    if (drop) frames -= dropN * (minutes - Math.floor(minutes / 10));
  }
  if (drop) {
    // Drop-frame: frame numbers 0 and 1 (2 and 3 at 60) are skipped each minute except every tenth.
    const per10 = nominal * 600 - dropN * 9;
    const per1 = nominal * 60 - dropN;
    const d = Math.floor(frames / per10);
    const r = frames % per10;
    frames += dropN * 9 * d + (r > dropN ? dropN * Math.floor((r - dropN) / per1) : 0);
  }
  const ff = frames % nominal;
  const totalSeconds = Math.floor(frames / nominal);
  const pad = (n: number) => String(n).padStart(2, '0');
  const hh = Math.floor(totalSeconds / 3600) % 24;
  return `${pad(hh)}:${pad(Math.floor(totalSeconds / 60) % 60)}:${pad(totalSeconds % 60)}${drop ? ';' : ':'}${pad(ff)}`;
}
