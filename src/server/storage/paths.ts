// Where a media item's files live and how they are addressed.
//   disk:  MEDIA_DIR/<storageKey>/<variant>
//   URL:   /media/<storageKey>/<variant>
// storageKey is random and server-generated; variants are fixed names, never user input.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { config } from '../config.ts';

export const VARIANTS = {
  thumbJpeg: 'thumb.jpg',
  thumbWebp: 'thumb.webp',
  fullWebp: 'full.webp',
  posterJpeg: 'poster.jpg',
  posterWebp: 'poster.webp',
  sprite: 'sprite.jpg',
  spriteMap: 'sprite.vtt',
  /** A version's HLS master playlist (issue 33), beside one media playlist per proxy. */
  master: 'master.m3u8',
  /** A RAW original's embedded JPEG, orientation applied (issue 42): what its other sizes are made from. */
  rawPreview: 'preview.jpg',
} as const;

/**
 * A gallery's display sizes of an image (issue 42), by long edge: AVIF and WebP thumbnails for
 * the grid's srcset, one WebP for the full-screen view. Made by the job queue.
 */
export const STILL_SIZES = [
  { edge: 480, formats: ['avif', 'webp'] },
  { edge: 960, formats: ['avif', 'webp'] },
  { edge: 2048, formats: ['webp'] },
] as const;
export const stillVariant = (edge: number, format: 'avif' | 'webp') => `g${edge}.${format}`;
/** A gallery download of an image at a long edge (web sizes and high-res), made on first request. */
export const downloadVariant = (edge: number) => `dl${edge}.jpg`;

/** A review proxy's file name, by its ladder rung: `360p.mp4`, `720p.mp4`, `1080p.mp4`, `2160p.mp4`. */
export function renditionVariant(label: string): string {
  return `${label}.mp4`;
}

/** The HLS media playlist of a proxy: `720p.mp4` → `720p.m3u8`. */
export function playlistVariant(renditionVariant: string): string {
  return renditionVariant.replace(/\.mp4$/, '.m3u8');
}

export const STORAGE_KEY_RE = /^[a-f0-9]{32}$/;
export const VARIANT_RE = /^(original\.[a-z0-9]{2,5}|thumb\.jpg|thumb\.webp|full\.webp|poster\.jpg|poster\.webp|(360|720|1080|2160)p\.(mp4|m3u8)|master\.m3u8|sprite\.jpg|sprite\.vtt|lp-[a-f0-9]{24}\.(mp4|jpg)|preview\.jpg|g(480|960|2048)\.(avif|webp)|dl[1-9]\d{3}\.jpg|oc-[1-9]\d{0,11}\.mp4)$/;

/**
 * An open-captions rendition (issue 54): captions burnt into the picture, one file per burn
 * (caption_burns row). Served only through the captions' own access rules (captions/files.ts).
 */
export const captionBurnVariant = (burnId: number) => `oc-${burnId}.mp4`;
export const CAPTION_BURN_RE = /^oc-([1-9]\d{0,11})\.mp4$/;

/** A link preview's file name: never one of the item's own files (see previewOwnerKey). */
export const LINK_PREVIEW_RE = /^lp-([a-f0-9]{24})\.(mp4|jpg)$/;

/**
 * A share link's preview of an item (issues 17 and 31): one file per link in each version's
 * folder, watermarked or a clean re-encode. Named by the link's random file key, so knowing a
 * link's id (sequential) tells nobody where its previews are.
 */
export function linkPreviewVariant(link: { fileKey: string }, type: 'image' | 'video'): string {
  return `lp-${link.fileKey}.${type === 'video' ? 'mp4' : 'jpg'}`;
}

/** A share link's random file key (see linkPreviewVariant): 96 bits. */
export function newFileKey(): string {
  return randomBytes(12).toString('hex');
}

/** Content types for the fixed derivative names. */
export function contentTypeForVariant(variant: string, originalMime: string): string {
  if (variant.startsWith('original.')) return originalMime;
  if (variant.endsWith('.webp')) return 'image/webp';
  if (variant.endsWith('.avif')) return 'image/avif';
  if (variant.endsWith('.jpg')) return 'image/jpeg';
  if (variant.endsWith('.mp4')) return 'video/mp4';
  if (variant.endsWith('.vtt')) return 'text/vtt; charset=utf-8';
  if (variant.endsWith('.m3u8')) return 'application/vnd.apple.mpegurl';
  return 'application/octet-stream';
}

export function newStorageKey(): string {
  return randomBytes(16).toString('hex');
}

export function mediaFolder(storageKey: string): string {
  if (!STORAGE_KEY_RE.test(storageKey)) throw new Error('Invalid storage key');
  return path.join(config.mediaDir, storageKey);
}

export function mediaFilePath(storageKey: string, variant: string): string {
  if (!VARIANT_RE.test(variant)) throw new Error('Invalid media variant');
  return path.join(mediaFolder(storageKey), variant);
}

export function mediaUrl(storageKey: string, variant: string): string {
  return `/media/${storageKey}/${variant}`;
}

export function originalVariant(ext: string): string {
  return `original.${ext}`;
}

/**
 * A scratch file inside the item's folder. Its name never matches VARIANT_RE, so it can
 * never be served, and renaming it into place is atomic (same file system).
 */
export function tempFilePath(storageKey: string, suffix = ''): string {
  return path.join(mediaFolder(storageKey), `.tmp-${randomBytes(8).toString('hex')}${suffix}`);
}
