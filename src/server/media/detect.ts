// Decides a file's type from its first bytes (never from its name or the client's claim).

export interface DetectedType {
  kind: 'image' | 'video';
  mimeType: string;
  ext: string;
  /**
   * A RAW still candidate (issue 42): a TIFF-like or camera container whose exact type (CR2,
   * NEF, ARW, DNG, …, or none we accept) exiftool decides at ingest (media/raw.ts).
   */
  raw?: true;
}

/** A RAW candidate until exiftool names it; its mime type and extension are provisional. */
const RAW_CANDIDATE: DetectedType = { kind: 'image', mimeType: 'image/x-raw', ext: 'raw', raw: true };

/** Bytes needed to decide; fewer is fine when the file is shorter. */
export const SNIFF_BYTES = 64;

// ftyp brands that are images or audio, not video (HEIF/AVIF stills, M4A audio). Canon's CR3
// ('crx ') is a RAW still (below).
const NON_VIDEO_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif', 'avis', 'M4A ', 'M4B ', 'M4P ', 'jp2 ', 'jpx ']);

const ascii = (b: Uint8Array, start: number, end: number) => Buffer.from(b.subarray(start, end)).toString('latin1');

export function detectType(head: Uint8Array): DetectedType | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) {
    return { kind: 'image', mimeType: 'image/jpeg', ext: 'jpg' };
  }
  if (head.length >= 8 && ascii(head, 0, 8) === '\x89PNG\r\n\x1a\n') {
    return { kind: 'image', mimeType: 'image/png', ext: 'png' };
  }
  if (head.length >= 6 && (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a')) {
    return { kind: 'image', mimeType: 'image/gif', ext: 'gif' };
  }
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF') {
    const form = ascii(head, 8, 12);
    if (form === 'WEBP') return { kind: 'image', mimeType: 'image/webp', ext: 'webp' };
    if (form === 'AVI ') return { kind: 'video', mimeType: 'video/x-msvideo', ext: 'avi' };
    return null;
  }
  // TIFF byte orders: CR2, NEF, ARW and DNG are TIFF inside (so is a plain TIFF, which exiftool
  // then refuses); Fujifilm's RAF has its own magic.
  if (head.length >= 4 && (ascii(head, 0, 4) === 'II*\0' || ascii(head, 0, 4) === 'MM\0*')) return RAW_CANDIDATE;
  if (head.length >= 15 && ascii(head, 0, 15) === 'FUJIFILMCCD-RAW') return RAW_CANDIDATE;
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (brand === 'crx ') return RAW_CANDIDATE;
    if (NON_VIDEO_BRANDS.has(brand)) return null;
    if (brand === 'qt  ') return { kind: 'video', mimeType: 'video/quicktime', ext: 'mov' };
    return { kind: 'video', mimeType: 'video/mp4', ext: 'mp4' };
  }
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) {
    // EBML: the DocType element (0x42 0x82) names webm or matroska.
    const text = ascii(head, 4, head.length);
    if (text.includes('webm')) return { kind: 'video', mimeType: 'video/webm', ext: 'webm' };
    return { kind: 'video', mimeType: 'video/x-matroska', ext: 'mkv' };
  }
  return null;
}

// ffmpeg's demuxer for each type we accept. Every ffmpeg/ffprobe run is told this instead of
// letting ffmpeg guess from the content: a file that starts like one container and carries
// another (an MPEG-TS or a DASH manifest behind a Matroska header) is read only as what we
// sniffed, so it is refused rather than followed.
const DEMUXERS: Record<string, string> = {
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/x-msvideo': 'avi',
  'video/webm': 'webm',
  'video/x-matroska': 'matroska',
  'image/jpeg': 'jpeg_pipe',
  'image/png': 'png_pipe',
  'image/webp': 'webp_pipe',
  'image/gif': 'gif',
};

/** The ffmpeg input format (-f) for a sniffed MIME type; null for a type we never accept. */
export function demuxerFor(mimeType: string): string | null {
  return DEMUXERS[mimeType] ?? null;
}

export function isImageType(t: DetectedType | null): t is DetectedType {
  return !!t && t.kind === 'image';
}
