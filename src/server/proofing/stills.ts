// The gallery sizes of an image (issue 42), made by the job queue: AVIF and WebP thumbnails at
// 480 and 960 px (long edge) for the grid's srcset, a 2,048 px WebP for the full-screen view,
// and the EXIF facts galleries show and sort by. One `stills` job per version; the original is
// decoded once (shrink-on-load to 2,048 px), every smaller size is cut from that.
import { and, eq, inArray, isNull, notExists, sql } from 'drizzle-orm';
import type { Metadata, Sharp } from 'sharp';
import { db } from '../../db/index.ts';
import { galleryImages, jobs, media, mediaVersions, stills } from '../../db/schema.ts';
import { storage } from '../storage/index.ts';
import { STILL_SIZES, stillVariant, VARIANTS } from '../storage/paths.ts';
import { inImageTurn } from '../media/image-turns.ts';
import { sharpLib } from '../media/derivatives.ts';
import { identifyRaw, isRawMime } from '../media/raw.ts';
import { cameraName, exifDate, readExif, type StillFacts } from './exif.ts';

export const STILLS = 'stills';
/** Scratch names of this job (never served; cleared when a retaken job starts again). */
export const STILLS_SCRATCH = '.stills-';

type Executor = Pick<typeof db, 'insert' | 'select'>;

/**
 * Queues the sizes of each version that has none yet and no job waiting for them. Jobs run
 * after queued videos of the same moment (run_after = now), one image at a time.
 */
export async function enqueueStills(tx: Executor, versions: { mediaId: number; versionId: number }[]): Promise<number> {
  if (!versions.length) return 0;
  const ids = versions.map((v) => v.versionId);
  const [done, waiting] = await Promise.all([
    tx.select({ id: stills.versionId }).from(stills).where(inArray(stills.versionId, ids)),
    tx
      .select({ id: jobs.versionId })
      .from(jobs)
      .where(and(eq(jobs.kind, STILLS), inArray(jobs.versionId, ids), inArray(jobs.status, ['queued', 'running']))),
  ]);
  const skip = new Set([...done, ...waiting].map((r) => r.id));
  const todo = versions.filter((v) => !skip.has(v.versionId));
  const now = Date.now();
  for (let i = 0; i < todo.length; i += 500) {
    await tx.insert(jobs).values(todo.slice(i, i + 500).map((v) => ({ kind: STILLS, mediaId: v.mediaId, versionId: v.versionId, runAfter: now })));
  }
  return todo.length;
}

/** A new version of an image that is in any gallery gets its sizes (issue 42). */
export async function enqueueStillsOfGalleryImage(tx: Executor, mediaId: number, versionId: number): Promise<void> {
  const [inGallery] = await tx.select({ id: galleryImages.id }).from(galleryImages).where(eq(galleryImages.mediaId, mediaId)).limit(1);
  if (inGallery) await enqueueStills(tx, [{ mediaId, versionId }]);
}

/** The current versions of gallery images that have no sizes and no live job (worker start). */
export async function backfillStills(): Promise<number> {
  const rows = await db
    .selectDistinct({ mediaId: media.id, versionId: mediaVersions.id })
    .from(galleryImages)
    .innerJoin(media, eq(media.id, galleryImages.mediaId))
    .innerJoin(mediaVersions, eq(mediaVersions.storageKey, media.storageKey))
    .leftJoin(stills, eq(stills.versionId, mediaVersions.id))
    .where(
      and(
        isNull(stills.versionId),
        notExists(db.select({ one: sql`1` }).from(jobs).where(and(eq(jobs.kind, STILLS), eq(jobs.versionId, mediaVersions.id), inArray(jobs.status, ['queued', 'running', 'failed'])))),
      ),
    );
  if (!rows.length) return 0;
  return db.transaction((tx) => enqueueStills(tx, rows));
}

/** The file the gallery sizes are made from: a RAW's embedded preview, else the original. */
export function stillSource(version: { url: string; mimeType: string }): string {
  return isRawMime(version.mimeType) ? VARIANTS.rawPreview : version.url.split('?')[0]!.split('/').pop()!;
}

async function factsOf(storageKey: string, version: { url: string; mimeType: string }, exif: Buffer | undefined): Promise<StillFacts> {
  if (!isRawMime(version.mimeType)) return readExif(exif);
  const raw = await identifyRaw(await storage.localPath(storageKey, version.url.split('/').pop()!));
  if (!raw) return { capturedAt: null, camera: null, lens: null };
  return {
    capturedAt: exifDate(raw.dateTimeOriginal, raw.subSecTimeOriginal, raw.offsetTimeOriginal),
    camera: cameraName(raw.make, raw.model),
    lens: raw.lens,
  };
}

/**
 * Writes every display size of one image into `dir`-less scratch files and hands each to
 * `commit`; exported for the bench, which runs sharp by hand beside it.
 */
export async function renderStillSizes(source: string, write: (variant: string, image: Sharp) => Promise<void>): Promise<Metadata> {
  const sharp = await sharpLib();
  const input = sharp(source, { failOn: 'error', limitInputPixels: false });
  const meta = await input.metadata();
  const top = STILL_SIZES.at(-1)!.edge;
  // One decode: JPEG shrink-on-load lands near the largest size; the rest are cut from its pixels.
  const { data, info } = await input.autoOrient().resize({ width: top, height: top, fit: 'inside', withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
  const pixels = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  await Promise.all(
    STILL_SIZES.flatMap(({ edge, formats }) =>
      formats.map((format) => {
        const img = pixels().resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true });
        return write(stillVariant(edge, format), format === 'avif' ? img.avif({ quality: 50, effort: 2 }) : img.webp({ quality: 78 }));
      }),
    ),
  );
  return meta;
}

/** Runs one `stills` job: the sizes and facts of `versionId`. false when the version is gone. */
export async function makeStills(versionId: number): Promise<boolean> {
  const [version] = await db.select().from(mediaVersions).where(eq(mediaVersions.id, versionId)).limit(1);
  if (!version) return false;
  const key = version.storageKey;
  await storage.clearScratch(key, STILLS_SCRATCH);
  const written: string[] = [];
  try {
    const source = await storage.localPath(key, stillSource(version));
    const meta = await inImageTurn(() =>
      renderStillSizes(source, async (variant, image) => {
        const out = storage.scratch(key, `${STILLS_SCRATCH}${variant}`);
        written.push(out);
        await image.toFile(out);
        await storage.commit(key, out, variant);
      }),
    );
    const facts = await factsOf(key, version, meta.exif);
    await db
      .insert(stills)
      .values({ versionId, status: 'ready', ...facts })
      .onConflictDoUpdate({ target: stills.versionId, set: { status: 'ready', ...facts, madeAt: new Date() } });
    return true;
  } finally {
    await storage.discard(...written).catch(() => {});
    await storage.releaseLocal(key).catch(() => {});
  }
}

/** A job that failed for good: the gallery keeps showing the small thumbnail, marked so. */
export async function markStillsFailed(versionId: number): Promise<void> {
  await db.insert(stills).values({ versionId, status: 'failed' }).onConflictDoNothing();
}
