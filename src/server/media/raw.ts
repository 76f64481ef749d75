// RAW stills (issue 42): CR2, CR3, NEF, ARW, RAF and DNG are kept as they were uploaded and
// previewed from the JPEG the camera embedded in them, read with Debian's exiftool
// (libimage-exiftool-perl; nothing is downloaded at run time). The preview keeps the RAW's
// orientation as its own EXIF tag, so everything made from it (thumbnails, gallery sizes,
// web-size downloads) is turned upright by the same autoOrient as any JPEG.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import type { DetectedType } from './detect.ts';

/** What exiftool calls each RAW type we accept, with the type and extension we store. */
const ACCEPTED: Record<string, { mimeType: string; ext: string }> = {
  CR2: { mimeType: 'image/x-canon-cr2', ext: 'cr2' },
  CR3: { mimeType: 'image/x-canon-cr3', ext: 'cr3' },
  NEF: { mimeType: 'image/x-nikon-nef', ext: 'nef' },
  ARW: { mimeType: 'image/x-sony-arw', ext: 'arw' },
  RAF: { mimeType: 'image/x-fujifilm-raf', ext: 'raf' },
  DNG: { mimeType: 'image/x-adobe-dng', ext: 'dng' },
};
export const RAW_MIME_TYPES = new Set(Object.values(ACCEPTED).map((a) => a.mimeType));
export const isRawMime = (mimeType: string) => RAW_MIME_TYPES.has(mimeType);

export const RAW_UNSUPPORTED = 'Unsupported RAW file: upload CR2, CR3, NEF, ARW, RAF or DNG (or a JPG, PNG, GIF or WebP image).';
export const RAW_NO_PREVIEW = 'This RAW file holds no preview image to show. Export a JPEG from it, or upload the RAW with its preview.';

/** The RAW facts the gallery shows and sorts by, as exiftool reads them. */
export interface RawFacts {
  type: DetectedType;
  orientation: number;
  make: string | null;
  model: string | null;
  lensMake: string | null;
  lens: string | null;
  dateTimeOriginal: string | null;
  subSecTimeOriginal: string | null;
  offsetTimeOriginal: string | null;
  /** Embedded JPEGs by tag name and size in bytes. */
  previews: { tag: string; bytes: number }[];
}

const TIMEOUT_MS = 60_000;
const PREVIEW_TAGS = ['JpgFromRaw', 'PreviewImage', 'OtherImage', 'ThumbnailImage'];
const MIN_PREVIEW_BYTES = 2048;

/** Runs exiftool with an argument list (never a shell); stdout as bytes. */
function exiftool(args: string[], maxBytes = 256 * 1024 * 1024): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('exiftool', args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    const out: Buffer[] = [];
    let size = 0;
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      size += d.length;
      if (size <= maxBytes) out.push(d);
      else child.kill('SIGKILL');
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-2000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code === 0 || (code === 1 && size > 0)) resolve(Buffer.concat(out));
      else reject(new Error(`exiftool exited with ${code}: ${err.trim()}`));
    });
  });
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null);

/**
 * Reads a RAW candidate's type and facts. null when exiftool is missing or says it is none of
 * the RAW types we accept (a plain TIFF, another camera maker's RAW).
 */
export async function identifyRaw(file: string): Promise<RawFacts | null> {
  let out: Buffer;
  try {
    // -n: numbers as numbers (Orientation 6, not "Rotate 90 CW"); binary tags report their size.
    out = await exiftool(['-j', '-n', '-FileType', '-Orientation', '-Make', '-Model', '-LensMake', '-LensModel', '-DateTimeOriginal', '-SubSecTimeOriginal', '-OffsetTimeOriginal', ...PREVIEW_TAGS.map((t) => `-${t}`), '--', file]);
  } catch {
    return null;
  }
  let info: Record<string, unknown>;
  try {
    info = (JSON.parse(out.toString('utf8')) as Record<string, unknown>[])[0] ?? {};
  } catch {
    return null;
  }
  const accepted = ACCEPTED[String(info.FileType ?? '')];
  if (!accepted) return null;
  // Under 2 KB is no picture worth showing (exiftool also names a DNG's own tiny strip a
  // "PreviewImage" when the camera embedded none).
  const previews = PREVIEW_TAGS.flatMap((tag) => {
    const m = /Binary data (\d+) bytes/.exec(String(info[tag] ?? ''));
    return m && Number(m[1]) >= MIN_PREVIEW_BYTES ? [{ tag, bytes: Number(m[1]) }] : [];
  });
  const orientation = Number(info.Orientation);
  return {
    type: { kind: 'image', mimeType: accepted.mimeType, ext: accepted.ext },
    orientation: Number.isInteger(orientation) && orientation >= 1 && orientation <= 8 ? orientation : 1,
    make: text(info.Make),
    model: text(info.Model),
    lensMake: text(info.LensMake),
    lens: text(info.LensModel),
    dateTimeOriginal: text(info.DateTimeOriginal),
    subSecTimeOriginal: text(info.SubSecTimeOriginal),
    offsetTimeOriginal: text(info.OffsetTimeOriginal),
    previews,
  };
}

/**
 * Writes the largest embedded JPEG of `raw` to `out`, carrying the RAW's orientation as its own
 * EXIF tag (the camera's embedded previews often have none). Throws when there is no preview.
 */
export async function extractRawPreview(raw: string, facts: RawFacts, out: string): Promise<void> {
  const best = [...facts.previews].sort((a, b) => b.bytes - a.bytes)[0];
  if (!best) throw new Error(RAW_NO_PREVIEW);
  const jpeg = await exiftool(['-b', `-${best.tag}`, '--', raw]);
  if (jpeg.length < 3 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error(RAW_NO_PREVIEW);
  await fs.writeFile(out, jpeg);
  // Written into the copy without decoding it (exiftool edits the EXIF block only).
  await exiftool(['-q', '-overwrite_original', '-n', `-Orientation=${facts.orientation}`, '--', out]);
}
