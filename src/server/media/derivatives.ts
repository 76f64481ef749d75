// Derivatives of an upload: thumbnails, webp versions and posters (sharp), video facts
// (ffprobe) and a poster frame (ffmpeg). Nothing here touches the database.
import fs from 'node:fs/promises';
import sharp, { type Metadata } from 'sharp';
import { mediaFilePath, mediaUrl, tempFilePath, VARIANTS } from '../storage/paths.ts';
import { extractFrame, probeVideo, type MediaFile } from './ffmpeg.ts';
import { isDiskFull } from '../storage/disk-space.ts';
import { config } from '../config.ts';
import { inImageTurn } from './image-turns.ts';

// libvips keeps recent operations in a cache, and with them open files and memory maps of their
// inputs. A deleted original (a failed upload, a deleted item) would keep its disk space until
// evicted, which on a full disk turns one refused upload into a lasting shortage; limiting the
// cache's open files was not enough (a failed write left the original mapped). Our inputs are
// read once anyway, so the cache is off.
sharp.cache(false);

export const THUMB_WIDTH = 640;
const FULL_MAX = 3840;
const POSTER_MAX = 1920;

/** The file has the right magic bytes but cannot be decoded. */
export class UnreadableMediaError extends Error {}

export interface ImageFacts {
  width: number | null;
  height: number | null;
  thumbnailUrl: string;
  thumbnailWebpUrl: string;
  webpUrl: string;
}

export interface VideoFacts {
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  posterUrl: string | null;
  thumbnailUrl: string | null;
  thumbnailWebpUrl: string | null;
}

const count = (n: number) => n.toLocaleString('en-GB', { maximumFractionDigits: 1 });

/**
 * Refuses an image with more decoded pixels than IMAGE_MAX_PIXELS, from the size its header
 * states (nothing is decoded): a 1 MB PNG can unpack to 268 megapixels, seconds of CPU and
 * hundreds of MB in the web process.
 */
function assertPixelLimit(width: number, frameHeight: number, frames: number): void {
  const pixels = width * frameHeight * frames;
  if (pixels <= config.IMAGE_MAX_PIXELS) return;
  const size = `${count(width)} × ${count(frameHeight)} pixels${frames > 1 ? ` × ${count(frames)} frames` : ''}`;
  throw new UnreadableMediaError(`The image is too large: ${size} (${count(pixels / 1e6)} megapixels); the limit is ${count(config.IMAGE_MAX_PIXELS / 1e6)} megapixels.`);
}

async function readable(file: string, animated = false) {
  // One instance for the header and the decoding: each sharp instance that opens the file maps
  // it, and a mapping left behind by a failed write keeps a deleted original's disk space until
  // garbage collection (seen on a full disk). The pixel limit is checked from the header, with a
  // message, before anything is decoded; decoders never produce more pixels than it states.
  const img = sharp(file, { animated, failOn: 'error', limitInputPixels: false });
  let meta: Metadata;
  try {
    meta = await img.metadata();
    if (!meta.width || !meta.height) throw new Error('no size');
  } catch (e) {
    // A full disk is not a damaged file: let the caller answer 507.
    if (isDiskFull(e)) throw e;
    throw new UnreadableMediaError('The image could not be read. Is the file damaged?');
  }
  const frameHeight = animated && meta.pageHeight ? meta.pageHeight : meta.height;
  assertPixelLimit(meta.width, frameHeight, animated ? Math.max(1, meta.pages ?? 1) : 1);
  // EXIF orientations 5-8 swap the displayed width and height.
  const swap = (meta.orientation ?? 1) >= 5;
  return { img: img.autoOrient(), width: swap ? frameHeight : meta.width, height: swap ? meta.width : frameHeight };
}

/** Writes into a scratch name and renames over the final name (atomic for readers). */
async function writeVariant(storageKey: string, variant: string, write: (tmp: string) => Promise<unknown>): Promise<void> {
  const tmp = tempFilePath(storageKey);
  try {
    await write(tmp);
    await fs.rename(tmp, mediaFilePath(storageKey, variant));
  } catch (e) {
    await fs.rm(tmp, { force: true });
    throw e;
  }
}

export function makeImageDerivatives(storageKey: string, original: string, mimeType: string): Promise<ImageFacts> {
  return inImageTurn(() => imageDerivatives(storageKey, original, mimeType));
}

async function imageDerivatives(storageKey: string, original: string, mimeType: string): Promise<ImageFacts> {
  // An animated WebP is decoded frame by frame like a GIF: every frame counts towards the pixel
  // limit, and the full-size WebP keeps them (read as a still, it lost its animation).
  const animated = mimeType === 'image/gif' || mimeType === 'image/webp';
  const { img, width, height } = await readable(original, animated);
  try {
    // The original is decoded once, for the full-size WebP; the thumbnails are cut from that
    // (at most 3,840 px) rather than from the original again: a PNG has no shrink-on-load, so
    // each decode of a large one costs its whole size in time and memory.
    await writeVariant(storageKey, VARIANTS.fullWebp, (t) =>
      img.resize({ width: FULL_MAX, height: FULL_MAX, fit: 'inside', withoutEnlargement: true }).webp({ quality: 82 }).toFile(t),
    );
    const full = sharp(mediaFilePath(storageKey, VARIANTS.fullWebp), { animated, failOn: 'error' });
    const thumb = () => full.clone().resize({ width: THUMB_WIDTH, withoutEnlargement: true });
    await Promise.all([
      writeVariant(storageKey, VARIANTS.thumbJpeg, (t) => thumb().flatten({ background: '#ffffff' }).jpeg({ quality: 80 }).toFile(t)),
      writeVariant(storageKey, VARIANTS.thumbWebp, (t) => thumb().webp({ quality: 78 }).toFile(t)),
    ]);
  } catch (e) {
    // A full disk is not a damaged file: let the caller answer 507.
    if (isDiskFull(e)) throw e;
    throw new UnreadableMediaError('The image could not be read. Is the file damaged?');
  }
  return {
    width,
    height,
    thumbnailUrl: mediaUrl(storageKey, VARIANTS.thumbJpeg),
    thumbnailWebpUrl: mediaUrl(storageKey, VARIANTS.thumbWebp),
    webpUrl: mediaUrl(storageKey, VARIANTS.fullWebp),
  };
}

export interface PosterFacts {
  posterUrl: string;
  thumbnailUrl: string;
  thumbnailWebpUrl: string;
}

/**
 * Poster (jpg + webp) and thumbnails of a video from a still image. `version` is added to
 * the URLs when a poster is replaced, so long-lived caches never show the old one.
 */
export function makePosterDerivatives(storageKey: string, source: string, version?: number): Promise<PosterFacts> {
  return inImageTurn(() => posterDerivatives(storageKey, source, version));
}

async function posterDerivatives(storageKey: string, source: string, version?: number): Promise<PosterFacts> {
  const { img } = await readable(source);
  try {
    const poster = () => img.clone().resize({ width: POSTER_MAX, height: POSTER_MAX, fit: 'inside', withoutEnlargement: true });
    const thumb = () => img.clone().resize({ width: THUMB_WIDTH, withoutEnlargement: true });
    await Promise.all([
      writeVariant(storageKey, VARIANTS.posterJpeg, (t) => poster().flatten({ background: '#000000' }).jpeg({ quality: 82 }).toFile(t)),
      writeVariant(storageKey, VARIANTS.posterWebp, (t) => poster().webp({ quality: 80 }).toFile(t)),
      writeVariant(storageKey, VARIANTS.thumbJpeg, (t) => thumb().flatten({ background: '#000000' }).jpeg({ quality: 80 }).toFile(t)),
      writeVariant(storageKey, VARIANTS.thumbWebp, (t) => thumb().webp({ quality: 78 }).toFile(t)),
    ]);
  } catch (e) {
    // A full disk is not a damaged file: let the caller answer 507.
    if (isDiskFull(e)) throw e;
    throw new UnreadableMediaError('The poster image could not be read. Is the file damaged?');
  }
  const v = version ? `?v=${version}` : '';
  return {
    posterUrl: mediaUrl(storageKey, VARIANTS.posterJpeg) + v,
    thumbnailUrl: mediaUrl(storageKey, VARIANTS.thumbJpeg) + v,
    thumbnailWebpUrl: mediaUrl(storageKey, VARIANTS.thumbWebp) + v,
  };
}

/** Facts and poster of an uploaded video: the given poster image, else a frame at 2 s. */
export async function makeVideoDerivatives(storageKey: string, original: MediaFile, posterSource: string | null): Promise<VideoFacts> {
  const info = await probeVideo(original);
  let poster: PosterFacts | null = null;
  if (posterSource) {
    poster = await makePosterDerivatives(storageKey, posterSource);
  } else {
    const frame = tempFilePath(storageKey, '.jpg');
    try {
      if (await extractFrame(original, frame, 2)) {
        poster = await makePosterDerivatives(storageKey, frame).catch(() => null);
      }
    } finally {
      await fs.rm(frame, { force: true });
    }
  }
  return {
    ...info,
    posterUrl: poster?.posterUrl ?? null,
    thumbnailUrl: poster?.thumbnailUrl ?? null,
    thumbnailWebpUrl: poster?.thumbnailWebpUrl ?? null,
  };
}
