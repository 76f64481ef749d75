// How a video plays: processing status, review proxies and the playback fields every
// media item and every review version carries. Used by media.ts and review.ts alike.
import { z } from '../zod.ts';

export const PROCESSING_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const;
export type ProcessingStatus = (typeof PROCESSING_STATUSES)[number];

/** A review proxy of a video (H.264 MP4). */
export const renditionSchema = z.object({ label: z.string(), url: z.string(), width: z.number().int(), height: z.number().int() });
export type Rendition = z.infer<typeof renditionSchema>;

/**
 * How a video plays, on every media item in every list (admin, portal, public). Images:
 * status null, no renditions. `playbackUrl` is the best rendition when ready; before that the
 * original only when a browser can play it, else null ("Preparing preview...").
 */
export const playbackSchema = z.object({
  processingStatus: z.enum(PROCESSING_STATUSES).nullable(),
  processingProgress: z.number().int().min(0).max(100),
  processingError: z.string().nullable(),
  playbackUrl: z.string().nullable(),
  renditions: z.array(renditionSchema),
  spriteUrl: z.string().nullable(),
  /**
   * The version's HLS master playlist (issue 33): every proxy written as fragmented MP4, as byte
   * ranges of the same files. Review players stream it when there are sizes to choose from;
   * null before it exists (older conversions until the backfill upgrades them, a single plain
   * copy) and wherever the viewer may not have the clean proxies (watermarked previews).
   */
  streamUrl: z.string().nullable(),
});
export type Playback = z.infer<typeof playbackSchema>;
