// Captions and subtitles (issue 54): the fields staff send with a caption file, the edits of a
// track, and what the players and the admin panel are told. One definition for the endpoints
// and the islands.
import { z } from '../zod.ts';
import { nameText, plainText } from './text.ts';

export const CAPTION_KINDS = ['subtitles', 'captions', 'forced'] as const;
export type CaptionKind = (typeof CAPTION_KINDS)[number];
export const CAPTION_KIND_LABELS: Record<CaptionKind, string> = {
  subtitles: 'Subtitles',
  captions: 'Captions (SDH)',
  forced: 'Forced subtitles',
};

export const CAPTION_SOURCES = ['uploaded', 'edited', 'embedded'] as const;
export type CaptionSource = (typeof CAPTION_SOURCES)[number];

/** How a file's bytes were read (decided from the bytes, never guessed: src/server/captions/decode.ts). */
export const CAPTION_ENCODINGS = ['utf-8', 'utf-8-bom', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
export type CaptionEncoding = (typeof CAPTION_ENCODINGS)[number];
export const CAPTION_ENCODING_LABELS: Record<CaptionEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-8-bom': 'UTF-8 with byte-order mark',
  'utf-16le': 'UTF-16 little-endian',
  'utf-16be': 'UTF-16 big-endian',
  'windows-1252': 'Windows-1252 (not valid UTF-8)',
};

/** A caption file is text: a two-hour film's SRT is about 150 kB, UTF-16 twice that. */
export const CAPTION_MAX_BYTES = 4 * 1024 * 1024;
export const CAPTION_LABEL_MAX = 60;

const kind = z.enum(CAPTION_KINDS, { error: `kind must be one of ${CAPTION_KINDS.join(', ')}` });
const language = plainText('language', 35, { required: true });
const label = nameText('label', CAPTION_LABEL_MAX);

/** The form fields beside the file of `POST …/versions/{versionId}/captions` (multipart). */
export const captionUploadFieldsSchema = z.object({
  language,
  label: label.optional(),
  kind: kind.default('subtitles'),
  published: z
    .enum(['true', 'false'], { error: 'published must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
  // Strict, as every JSON body: a field the form does not have is a mistake worth naming.
}).strict();

/** `PATCH /api/media/{id}/captions/{trackId}`. */
export const captionUpdateSchema = z
  .object({ language: language.optional(), label: label.optional(), kind: kind.optional(), published: z.boolean({ error: 'published must be true or false' }).optional() })
  .strict();
export type CaptionUpdate = z.infer<typeof captionUpdateSchema>;

/** Download addresses of a track, when the viewer may download (null otherwise). */
export interface CaptionDownloads {
  /** The file as it was uploaded (or extracted), byte for byte. */
  original: string;
  srt: string;
  vtt: string;
  /** Ready open-captions renditions (captions burnt into the picture). */
  burnt: string | null;
}

/** A track as a player is told it (`captions.json` in the version's folder). */
export interface PlayerCaption {
  id: number;
  language: string;
  label: string;
  kind: CaptionKind;
  /** WebVTT on the version's frames, for a <track>. */
  src: string;
  downloads: CaptionDownloads | null;
}

export interface CaptionIndex {
  tracks: PlayerCaption[];
  /** Why there are no downloads yet (downloads wait for approval), else null. */
  downloadBlockedReason: string | null;
}

export interface CaptionBurnInfo {
  id: number;
  status: 'queued' | 'ready' | 'failed';
  error: string | null;
  /** The revision it was made from: stale once the track has a newer one. */
  current: boolean;
  url: string | null;
}

/** A track as staff see it (admin panel). */
export interface CaptionTrackInfo extends PlayerCaption {
  versionId: number;
  published: boolean;
  revision: number;
  revisionId: number;
  source: CaptionSource;
  format: string;
  encoding: CaptionEncoding;
  fileName: string;
  cueCount: number;
  /** What was repaired on the way in. */
  notes: string[];
  carriedFrom: number | null;
  createdAt: string;
  burns: CaptionBurnInfo[];
}

/** The answer of an upload: the track and how its file was read. */
export interface CaptionUploadResult {
  track: CaptionTrackInfo;
  encoding: CaptionEncoding;
  encodingLabel: string;
  format: string;
  cueCount: number;
  notes: string[];
}

export { CAPTION_CHOICE_OFF } from '../caption-choice.ts';
