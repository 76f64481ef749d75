// A gallery viewer's files (issue 42): the display sizes the grid and the full-screen view
// show, and downloads at the sizes the package allows. Download sizes are made on first request
// from the original (a RAW's embedded preview), never larger than it, and kept beside it.
import { and, eq } from 'drizzle-orm';
import type { APIContext } from 'astro';
import { db } from '../../db/index.ts';
import { galleryImages, gallerySets } from '../../db/schema.ts';
import { badRequest, errorResponse, json } from '../http.ts';
import { cleanName, contentDisposition, serveStoredFile } from '../media/delivery.ts';
import { inImageTurn } from '../media/image-turns.ts';
import { sharpLib } from '../media/derivatives.ts';
import { storage } from '../storage/index.ts';
import { downloadVariant } from '../storage/paths.ts';
import { DOWNLOAD_TIERS, PIN_NEEDED, sizeEdge, tierSizes, type DownloadTier } from '../../shared/schemas/proofing.ts';
import { HttpError } from '../http.ts';
import { markedVariant, type Viewing } from './access.ts';
import { galleryImageRows, type GalleryImageRow } from './galleries.ts';
import { downloadStarted, imageTier, reserveDownloads, SIZE_NOT_OFFERED, type Size } from './downloads.ts';
import { fileStem } from './order.ts';
import { pinOk } from './pin.ts';
import { stillSource } from './stills.ts';

/** What a viewer may fetch to look at an image: its gallery sizes, and the small thumbnail until they are made. */
const DISPLAY_RE = /^(g(480|960|2048)\.(avif|webp)|thumb\.webp)$/;
/** A watermarked link's one picture of an image (see markedVariant). */
export const MARKED = 'marked.jpg';
const SIZES = DOWNLOAD_TIERS.filter((t): t is Size => t !== 'off');

export function parseSize(value: string | null): Size {
  if (!value || !SIZES.includes(value as Size)) throw badRequest(`size: must be one of ${SIZES.join(', ')}`);
  return value as Size;
}

/** One image of the viewer's gallery with the tier it follows (null: not in this gallery). */
export async function viewerImage(v: Viewing, imageId: number): Promise<(GalleryImageRow & { tier: DownloadTier }) | null> {
  const [row] = await db
    .select({ id: galleryImages.id, setTier: gallerySets.downloadTier })
    .from(galleryImages)
    .leftJoin(gallerySets, eq(gallerySets.id, galleryImages.setId))
    .where(and(eq(galleryImages.id, imageId), eq(galleryImages.galleryId, v.gallery.id)))
    .limit(1);
  if (!row) return null;
  const full = (await galleryImageRows(v.gallery.id, imageId))[0];
  return full ? { ...full, tier: imageTier(v.gallery.downloadTier, row.setTier) } : null;
}

/** The name a download is offered under: the uploaded file's name; a resized copy as "<name>.jpg". */
export function downloadFileName(row: Pick<GalleryImageRow, 'filename' | 'title' | 'url'>, size: Size): string {
  const stem = cleanName(fileStem(row.filename)) || cleanName(row.title) || 'image';
  if (size !== 'original') return `${stem}.jpg`;
  const ext = /\.([a-z0-9]+)$/.exec(row.url.split('?')[0]!)?.[1] ?? 'bin';
  return `${stem}.${ext}`;
}

/**
 * The stored file for a download at `size`, made now when it is a resized copy not made yet:
 * a JPEG at the size's long edge (never upscaled), upright, with its colour profile and EXIF.
 */
export async function downloadFile(row: Pick<GalleryImageRow, 'storageKey' | 'url' | 'mimeType'>, size: Size, highResEdge: number): Promise<string> {
  const edge = sizeEdge(size, highResEdge);
  if (edge == null) return row.url.split('?')[0]!.split('/').pop()!;
  const variant = downloadVariant(edge);
  const key = row.storageKey;
  if (await storage.exists(key, variant)) return variant;
  const out = storage.scratch(key, `.dl-${edge}.jpg`);
  try {
    const source = await storage.localPath(key, stillSource(row));
    const sharp = await sharpLib();
    await inImageTurn(() =>
      sharp(source, { failOn: 'error', limitInputPixels: false })
        .autoOrient()
        .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true })
        .keepIccProfile()
        .keepExif()
        .jpeg({ quality: 90, chromaSubsampling: '4:4:4' })
        .toFile(out),
    );
    await storage.commit(key, out, variant);
  } finally {
    await storage.discard(out).catch(() => {});
    await storage.releaseLocal(key).catch(() => {});
  }
  return variant;
}

/** GET /…/{imageId}/{file}: a display size, or `download?size=…`. */
export async function serveViewerFile(v: Viewing, imageIdParam: string | undefined, file: string | undefined): Promise<Response> {
  const id = /^[1-9]\d{0,15}$/.test(imageIdParam ?? '') ? Number(imageIdParam) : null;
  if (!id || !file || (file !== 'download' && file !== MARKED && !DISPLAY_RE.test(file))) return errorResponse(404, 'Not found');
  const row = await viewerImage(v, id);
  if (!row) return errorResponse(404, 'Not found');
  const ctx = v.ctx as APIContext;
  const target = { id: row.mediaId, mimeType: row.mimeType, filename: row.filename, title: row.title, isPublic: false };
  // A watermarked link shows and gives its marked copy and nothing clean, by any name.
  const marked = markedVariant(v);
  if (file !== 'download') {
    if (marked) return file === MARKED ? serveStoredFile(ctx, row.storageKey, marked, { ...target, mimeType: 'image/jpeg' }) : errorResponse(404, 'Not found');
    return file === MARKED ? errorResponse(404, 'Not found') : serveStoredFile(ctx, row.storageKey, file, target);
  }

  const size = parseSize(ctx.url.searchParams.get('size'));
  if (!tierSizes(row.tier).includes(size) || (marked && size !== 'web2048')) throw new HttpError(403, SIZE_NOT_OFFERED);
  if (!(await pinOk(v))) throw new HttpError(403, PIN_NEEDED);
  const name = downloadFileName(row, size);
  const item = { imageId: row.id, mediaId: row.mediaId, tier: row.tier, fileName: name };
  if (ctx.url.searchParams.get('check') === '1') {
    await reserveDownloads(v, [item], size, null, true);
    return json({ ok: true, files: 1 });
  }
  const variant = marked ?? (await downloadFile(row, size, v.gallery.highResEdge));
  const mime = size === 'original' ? row.mimeType : 'image/jpeg';
  const res = await serveStoredFile(ctx, row.storageKey, variant, { ...target, mimeType: mime, downloadAs: name }, {
    // Decided once the answer's first byte is known (after If-Range, which may turn a range into
    // the whole file): one that may start at byte 0 is a download, checked against the cap and
    // logged; one from a later byte only resumes a download this viewer started of this file.
    onTransfer: async (fromStart) => {
      if (!fromStart && (await downloadStarted(v, row.id, size))) return;
      await reserveDownloads(v, [item], size, null);
    },
  });
  if (!res.headers.has('Content-Disposition') && res.status < 300) res.headers.set('Content-Disposition', contentDisposition(name));
  return res;
}

