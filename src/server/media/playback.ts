// The playback fields every list shows for an item (see Playback in shared/schemas/media.ts),
// computed from the row's processing columns. Rendition and sprite files live next to the
// original, so they share its URL folder and its visibility rules (delivery.ts).
import type { StoredRendition } from '../../db/schema.ts';
import type { Playback, ProcessingStatus } from '../../shared/schemas/media.ts';
import { VARIANTS } from '../storage/paths.ts';
import { config } from '../config.ts';

export interface PlaybackColumns {
  type: 'image' | 'video';
  url: string;
  mimeType: string;
  processingStatus: ProcessingStatus | null;
  processingProgress: number | null;
  processingError: string | null;
  renditions: StoredRendition[] | null;
  spriteUrl: string | null;
  originalPlayable: boolean | number | null;
}

function folderUrl(originalUrl: string): string {
  return originalUrl.slice(0, originalUrl.lastIndexOf('/') + 1);
}

/**
 * Whether the original can stand in while no proxy exists. A row never probed (status null:
 * from before this feature, or written by hand) is judged by its type, as players did before.
 */
function originalPlays(row: PlaybackColumns): boolean {
  if (row.processingStatus == null) return row.mimeType === 'video/mp4' || row.mimeType === 'video/webm';
  return !!row.originalPlayable;
}

export function playbackFields(row: PlaybackColumns): Playback {
  if (row.type !== 'video') {
    return { processingStatus: null, processingProgress: 0, processingError: null, playbackUrl: null, renditions: [], spriteUrl: null, streamUrl: null };
  }
  const status = row.processingStatus ?? 'queued';
  const ready = status === 'ready';
  const base = folderUrl(row.url);
  const renditions = ready
    ? (row.renditions ?? []).map((r) => ({ label: r.label, url: `${base}${r.variant}${r.version ? `?v=${r.version}` : ''}`, width: r.width, height: r.height }))
    : [];
  return {
    processingStatus: status,
    processingProgress: ready ? 100 : Math.max(0, Math.min(100, row.processingProgress ?? 0)),
    processingError: status === 'failed' ? row.processingError : null,
    playbackUrl: progressive(renditions)?.url ?? (originalPlays(row) ? row.url : null),
    renditions,
    spriteUrl: ready ? row.spriteUrl : null,
    streamUrl: ready ? streamUrlOf(base, row.renditions ?? []) : null,
  };
}

/**
 * Whether players may stream: a playlist's byte ranges are fetched by script, so they must come
 * from the app's own origin. S3 in redirect mode sends every file from the bucket's origin
 * (which the page's connect-src does not allow, and which would need CORS rules): there the
 * review players play the sizes as files, with the quality menu, as before.
 */
export const STREAMING = !(config.MEDIA_STORAGE === 's3' && config.S3_DELIVERY === 'redirect');

/** The master playlist sits beside the proxies, written by the job that wrote the streamed ones. */
function streamUrlOf(base: string, stored: StoredRendition[]): string | null {
  if (!STREAMING) return null;
  const streamed = stored.find((r) => r.hls);
  return streamed ? `${base}${VARIANTS.master}${streamed.version ? `?v=${streamed.version}` : ''}` : null;
}

const shortSide = (r: { width: number; height: number }) => Math.min(r.width, r.height);

/**
 * The proxy played as one file (playbackUrl, watch pages, share previews): the largest up to
 * 1080p. A 2160p proxy is for review players that pick it, too heavy as anyone's default.
 * Renditions come largest first.
 */
export function progressive<R extends { width: number; height: number }>(renditions: readonly R[]): R | undefined {
  return renditions.find((r) => shortSide(r) <= 1080) ?? renditions[0];
}

/**
 * The tallest proxy a closed gate plays (issue 40: a client or link whose downloads are held
 * back). Anything larger is as good as the master; players of such viewers get 1080p at most.
 */
export const CLOSED_MAX_SHORT_SIDE = 1080;

/** The proxies a closed gate may play, of a ladder whose proxies are all encodes (see sharing/link-files.ts). */
export function closedRenditions<R extends { width: number; height: number }>(renditions: readonly R[]): R[] {
  return renditions.filter((r) => shortSide(r) <= CLOSED_MAX_SHORT_SIDE);
}

/** Section backgrounds: the largest proxy up to 720p (light enough for a muted loop), else what plays. */
export function backgroundVideoUrl(p: Playback): string | null {
  return p.renditions.find((r) => shortSide(r) <= 720)?.url ?? p.playbackUrl;
}
