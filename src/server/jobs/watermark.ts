// A share link's preview of one version (issues 17 and 31): what a link that does not offer the
// original plays and downloads when the item's own files would give more than the link allows.
// Watermarked links burn their text into every frame with ffmpeg's drawtext (images too, so
// there is one way to draw it); clean links get a plain re-encode: a video whose only proxy is
// a remux (the original's streams byte for byte) and every image (at most 2,048 px).
// A video's preview is cut from its smallest clean review proxy (enough for a preview, and
// quick); an image's from its full-size WebP, else the original.
import fs from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { media, mediaVersions, shareLinks } from '../../db/schema.ts';
import { storage } from '../storage/index.ts';
import { linkPreviewVariant, VARIANTS } from '../storage/paths.ts';
import { watermarkText, type WatermarkPosition } from '../../shared/schemas/share.ts';
import { runFfmpeg } from './ffmpeg-run.ts';
import { inputArgs, type MediaFile } from '../media/ffmpeg.ts';
import { WATERMARK_SCRATCH } from '../storage/markers.ts';

const FONT_FILE = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

const MARGIN = { x: 'w*0.04', y: 'h*0.04' };
const PLACES: Record<WatermarkPosition, { x: string; y: string }> = {
  'top-left': { x: MARGIN.x, y: MARGIN.y },
  'top-right': { x: `w-tw-${MARGIN.x}`, y: MARGIN.y },
  'bottom-left': { x: MARGIN.x, y: `h-th-${MARGIN.y}` },
  'bottom-right': { x: `w-tw-${MARGIN.x}`, y: `h-th-${MARGIN.y}` },
  center: { x: '(w-tw)/2', y: '(h-th)/2' },
};

/**
 * The drawtext filter. The text is read from a file (`textFile`, a scratch path of hex
 * characters) so nothing a member of staff typed is ever parsed as filter syntax.
 */
export function drawtextFilter(textFile: string, position: WatermarkPosition, opacityPercent: number): string {
  const alpha = (Math.max(10, Math.min(100, opacityPercent)) / 100).toFixed(2);
  const font = fs.existsSync(FONT_FILE) ? `fontfile=${FONT_FILE}` : 'font=Sans';
  const { x, y } = PLACES[position];
  return [
    `drawtext=${font}`,
    `textfile=${textFile}`,
    `fontsize=h/14`,
    `fontcolor=white@${alpha}`,
    `borderw=2`,
    `bordercolor=black@${alpha}`,
    `x=${x}`,
    `y=${y}`,
  ].join(':');
}

export interface WatermarkOutcome {
  variant: string;
}

/** The long side of an image preview: enough to review, far from the original (3,840 px and up). */
export const IMAGE_PREVIEW_MAX = 2048;

/** Makes `lp-{fileKey}.mp4|jpg` in the version's folder. Throws when the source is missing. */
export async function makeWatermark(
  versionId: number,
  linkId: number,
  onProgress: (f: number) => void,
  signal: AbortSignal,
  /** Told the folder used, so the worker can drop local copies afterwards (S3). */
  usesFolder: (storageKey: string) => void = () => {},
): Promise<WatermarkOutcome | null> {
  const [row] = await db
    .select({ version: mediaVersions, type: media.type })
    .from(mediaVersions)
    .innerJoin(media, eq(media.id, mediaVersions.mediaId))
    .where(eq(mediaVersions.id, versionId))
    .limit(1);
  const [link] = await db.select().from(shareLinks).where(eq(shareLinks.id, linkId)).limit(1);
  if (!row || !link) return null; // deleted meanwhile: nothing to make
  const v = row.version;
  const key = v.storageKey;
  usesFolder(key);
  const variant = linkPreviewVariant(link, row.type);
  // Its own marker: a conversion of the same version clears only its own scratch, and this
  // job clears only what an earlier attempt of itself left.
  const marker = `${WATERMARK_SCRATCH}${link.id}-`;
  await storage.clearScratch(key, marker);
  const textFile = storage.scratch(key, marker + '.txt');
  const out = storage.scratch(key, marker + (row.type === 'video' ? '.mp4' : '.jpg'));
  try {
    // The source first: with S3 fetching it also makes the item's local working folder.
    let input: MediaFile;
    if (row.type === 'video') {
      // The largest proxy up to 720p: the 360p rung is too soft to judge a cut by.
      const proxies = [...(v.renditions ?? [])].sort((a, b) => b.width * b.height - a.width * a.height);
      const source = proxies.find((r) => Math.min(r.width, r.height) <= 720) ?? proxies[proxies.length - 1];
      if (!source) throw new Error('The video has no review proxy yet to make the preview from.');
      input = { path: await storage.localPath(key, source.variant), mimeType: 'video/mp4' };
    } else if (v.webpUrl) {
      input = { path: await storage.localPath(key, VARIANTS.fullWebp), mimeType: 'image/webp' };
    } else {
      input = { path: await storage.localPath(key, v.url.split('/').pop()!), mimeType: v.mimeType };
    }
    const filters: string[] = [];
    if (row.type === 'image') filters.push(`scale='min(${IMAGE_PREVIEW_MAX},iw)':'min(${IMAGE_PREVIEW_MAX},ih)':force_original_aspect_ratio=decrease`);
    if (link.watermark) {
      await writeFile(textFile, watermarkText(link.watermarkText, link.name));
      filters.push(drawtextFilter(textFile, link.watermarkPosition, link.watermarkOpacity));
    }
    const vf = filters.length ? ['-vf', filters.join(',')] : [];
    const args =
      row.type === 'video'
        ? [
            ...inputArgs(input),
            '-map', '0:v:0', '-map', '0:a:0?',
            ...vf,
            '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p',
            '-force_key_frames', 'expr:gte(t,n_forced*2)',
            // The audio is encoded too: the source may be a remux, whose audio is the original's
            // stream byte for byte (issue 40: a preview holds nothing of the original's streams).
            '-c:a', 'aac', '-b:a', '128k', '-map_metadata', '-1', '-sn', '-dn',
            '-movflags', '+faststart', '-f', 'mp4', out,
          ]
        : [...inputArgs(input), ...vf, '-frames:v', '1', '-q:v', '3', '-f', 'image2', '-c:v', 'mjpeg', out];
    await runFfmpeg({ args, durationSeconds: row.type === 'video' ? v.durationSeconds : 1, signal, onProgress });
    await storage.commit(key, out, variant);
    return { variant };
  } catch (e) {
    await storage.discard(out);
    throw e;
  } finally {
    await storage.discard(textFile);
  }
}
