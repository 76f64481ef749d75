// Open captions (issue 54): a track's cues burnt into the picture by the job queue (kind
// 'burn'), with ffmpeg's subtitles filter (libass) drawing our own SubStation file in
// CAPTION_FONT, for editors and platforms that take no caption file. Made from the proxy a
// preview download gives (the largest up to 1080p), sound copied; `oc-{burn id}.mp4` in the
// version's folder, a download under the same gates as every other (captions/files.ts).
import { writeFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { captionBurns, captionTracks, mediaVersions } from '../../db/schema.ts';
import { config } from '../config.ts';
import { storage } from '../storage/index.ts';
import { captionBurnVariant } from '../storage/paths.ts';
import { BURN_SCRATCH } from '../storage/markers.ts';
import { progressive } from '../media/playback.ts';
import { inputArgs } from '../media/ffmpeg.ts';
import { runFfmpeg } from '../jobs/ffmpeg-run.ts';
import { onFrames, toAss } from './format.ts';
import { cuesOf, timingOf } from './read.ts';

export const BURN = 'burn';

/** The subtitles filter drawing `assFile` (a scratch path of our own: hex names, no filter syntax). */
export function subtitlesFilter(assFile: string): string {
  return `subtitles=filename=${assFile}:fontsdir=${config.CAPTION_FONTS_DIR}`;
}

/** ffmpeg's arguments for a burn of `input` (an MP4 proxy) into `out`. */
export function burnArgs(input: string, assFile: string, out: string, threads?: number): string[] {
  return [
    ...inputArgs({ path: input, mimeType: 'video/mp4' }),
    '-map', '0:v:0', '-map', '0:a:0?',
    '-vf', subtitlesFilter(assFile),
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p',
    ...(threads ? ['-threads', String(threads)] : []),
    '-c:a', 'copy', '-map_metadata', '-1', '-sn', '-dn',
    '-movflags', '+faststart', '-f', 'mp4', out,
  ];
}

/** Makes the burn's file; false when its track or version is gone (nothing to make). */
export async function makeBurn(burnId: number, onProgress: (f: number) => void, signal: AbortSignal, usesFolder: (storageKey: string) => void, threads?: number): Promise<boolean> {
  const [row] = await db
    .select({ revisionId: captionBurns.revisionId, storageKey: mediaVersions.storageKey, renditions: mediaVersions.renditions, probe: mediaVersions.probe, durationSeconds: mediaVersions.durationSeconds })
    .from(captionBurns)
    .innerJoin(captionTracks, eq(captionTracks.id, captionBurns.trackId))
    .innerJoin(mediaVersions, eq(mediaVersions.id, captionTracks.versionId))
    .where(eq(captionBurns.id, burnId))
    .limit(1);
  if (!row) return false;
  const { revisionId, ...version } = row;
  const key = version.storageKey;
  usesFolder(key);
  const source = progressive(version.renditions ?? []);
  if (!source) throw new Error('The video has no review proxy yet to draw the captions on.');
  const marker = `${BURN_SCRATCH}${burnId}-`;
  await storage.clearScratch(key, marker);
  const ass = storage.scratch(key, marker + '.ass');
  const out = storage.scratch(key, marker + '.mp4');
  try {
    const input = await storage.localPath(key, source.variant);
    const cues = onFrames(await cuesOf(revisionId), timingOf(version).fps);
    await writeFile(ass, toAss(cues, source.width, source.height, config.CAPTION_FONT));
    await runFfmpeg({ args: burnArgs(input, ass, out, threads), durationSeconds: version.durationSeconds, signal, onProgress, threads });
    await storage.commit(key, out, captionBurnVariant(burnId));
    await db.update(captionBurns).set({ status: 'ready', error: null }).where(eq(captionBurns.id, burnId));
    return true;
  } catch (e) {
    await storage.discard(out);
    throw e;
  } finally {
    await storage.discard(ass);
  }
}

/** A burn whose job failed for good: staff see why (without paths) and may ask again. */
export async function markBurnFailed(burnId: number, message: string): Promise<void> {
  await db.update(captionBurns).set({ status: 'failed', error: message.slice(0, 300) }).where(eq(captionBurns.id, burnId));
}
