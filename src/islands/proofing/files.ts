// Addresses of a gallery image's files for its viewer (issue 42): the AVIF/WebP display sizes
// made by the job queue (with their real pixel widths for srcset), the small thumbnail until
// they are made, downloads and ZIPs.
import type { DownloadTier, ViewerImage } from '../../shared/schemas/proofing.ts';

type Sized = Pick<ViewerImage, 'id' | 'width' | 'height' | 'ready'>;

/** The width of an image fitted inside `edge` x `edge` (never enlarged). */
export function widthAt(img: Pick<Sized, 'width' | 'height'>, edge: number): number {
  const scale = Math.min(1, edge / Math.max(img.width, img.height));
  return Math.max(1, Math.round(img.width * scale));
}

export const fileUrl = (base: string, id: number, file: string) => `${base}/${id}/${file}`;

/** srcset of one format over the grid sizes (480 and 960 px long edge). */
export function srcset(base: string, img: Sized, format: 'avif' | 'webp'): string {
  return [480, 960].map((edge) => `${fileUrl(base, img.id, `g${edge}.${format}`)} ${widthAt(img, edge)}w`).join(', ');
}

/**
 * The one picture for the full-screen view and compare (2,048 px, or the thumbnail until made).
 * On a watermarked link every picture is the link's marked copy.
 */
export const largeUrl = (base: string, img: Sized, marked = false) => fileUrl(base, img.id, marked ? 'marked.jpg' : img.ready ? 'g2048.webp' : 'thumb.webp');
export const thumbUrl = (base: string, img: Sized, marked = false) => fileUrl(base, img.id, marked ? 'marked.jpg' : img.ready ? 'g480.webp' : 'thumb.webp');

export const downloadUrl = (base: string, id: number, size: Exclude<DownloadTier, 'off'>) => `${fileUrl(base, id, 'download')}?size=${size}&download=1`;

export function sizeLabel(size: Exclude<DownloadTier, 'off'>, highResEdge: number, marked = false): string {
  if (marked) return 'Watermarked copy (up to 2,048 px)';
  if (size === 'original') return 'Original file';
  if (size === 'highres') return `High-res (${highResEdge.toLocaleString('en-GB')} px)`;
  return size === 'web1024' ? 'Web size (1,024 px)' : 'Web size (2,048 px)';
}
