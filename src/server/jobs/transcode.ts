// The review-proxy conversion of one video: plan (remux or transcode, which sizes), run
// ffmpeg once for all renditions (one decode), then a thumbnail sprite with its WebVTT map.
// Outputs are written to scratch names and moved into place only when all succeeded.
import { stat, writeFile } from 'node:fs/promises';
import type { StoredRendition } from '../../db/schema.ts';
import { storage } from '../storage/index.ts';
import { canRemux, isHdr, type VideoProbe } from '../media/probe.ts';
import { mediaUrl, playlistVariant, renditionVariant, VARIANTS } from '../storage/paths.ts';
import { runFfmpeg } from './ffmpeg-run.ts';
import { inputArgs, type MediaFile } from '../media/ffmpeg.ts';
import { JOB_SCRATCH } from '../storage/markers.ts';
import { FRAGMENTED_MOVFLAGS, fragmentIndex, masterPlaylist, mediaPlaylist, type Variant } from '../media/hls.ts';
import { progressive } from '../media/playback.ts';
import { frameTimesOff } from './frame-check.ts';

export interface PlannedRendition extends StoredRendition {
  filters: string[];
  /** The ladder rung it stands for (its file name): 2160, 1080, 720 or 360. */
  rung: number;
  /** A stream copy of the source (remux), not an encode. */
  copy: boolean;
}

export interface Plan {
  path: 'remux' | 'transcode';
  renditions: PlannedRendition[];
  /**
   * Rungs left for a second job: a remux becomes playable as soon as the copy is made (seconds
   * for a large file), and the smaller rungs follow in an upgrade job (queue.ts), so a playable
   * upload never waits for encodes.
   */
  partial: boolean;
}

/**
 * The ladder's rungs, largest first. 2160 and 1080 only from sources at least that tall; 720 and
 * 360 always, a smaller source keeping its own size. A file is named by its rung (`720p.mp4`),
 * but labelled by its real short side, so a 640x360 source's one proxy is "360p".
 */
export const RUNGS = [2160, 1080, 720, 360] as const;

/**
 * Bumped when the ladder changes (2: 360p and 2160p, true labels; 3: fragmented, with HLS
 * playlists; 4: the original's frame times, checked): ready videos whose renditions carry an
 * older mark are checked, and converted again where needed, by a repair job the backfill queues
 * (queue.ts), keeping the old files playing meanwhile.
 */
export const LADDER = 4;

/** The ladder before frame times were checked: a repair that finds its files exact only re-marks them. */
export const LADDER_BEFORE_FRAME_CHECK = 3;

const even = (n: number) => Math.max(2, Math.floor(n / 2) * 2);

/** Displayed size scaled so its short side is `short` (never up), both sides even. */
function fit(p: VideoProbe, short: number): { width: number; height: number } {
  const srcShort = Math.min(p.width, p.height);
  if (srcShort <= short) return { width: even(p.width), height: even(p.height) };
  const k = short / srcShort;
  return { width: even(Math.round(p.width * k)), height: even(Math.round(p.height * k)) };
}

/** Tone-maps PQ/HLG to SDR BT.709 (zscale + tonemap): HDR shown as-is looks grey and flat. */
function hdrFilters(p: VideoProbe): string[] {
  if (!isHdr(p)) return [];
  return [
    `zscale=tin=${p.colorTransfer}:min=bt2020nc:pin=bt2020:t=linear:npl=100`,
    'format=gbrpf32le',
    'zscale=p=bt709',
    'tonemap=tonemap=hable:desat=0',
    'zscale=t=bt709:m=bt709:r=tv',
  ];
}

const shortLabel = (size: { width: number; height: number }) => `${Math.min(size.width, size.height)}p`;

function encoded(p: VideoProbe, rung: number, size: { width: number; height: number }): PlannedRendition {
  const label = shortLabel(size);
  return {
    label,
    variant: renditionVariant(`${rung}p`),
    rung,
    copy: false,
    hls: true,
    ...size,
    // ffmpeg has already applied the rotation (autorotate) before these filters run.
    filters: [...hdrFilters(p), `scale=${size.width}:${size.height}:flags=bicubic`, 'setsar=1', 'format=yuv420p'],
  };
}

/**
 * What a job makes of a source: the ladder, largest first. `full` false (a first conversion) keeps
 * a remux to its copy alone; the upgrade job that follows asks for everything.
 */
export function plan(p: VideoProbe, full = true): Plan {
  const srcShort = Math.min(p.width, p.height);
  const rungs = RUNGS.filter((r) => r <= 720 || srcShort >= r);
  const out: PlannedRendition[] = [];
  let path: Plan['path'] = 'transcode';
  if (canRemux(p)) {
    // The source itself (copied) is the top rung; only the smaller rungs are encoded.
    path = 'remux';
    const rung = srcShort >= 1080 ? 1080 : 720;
    const size = { width: p.width, height: p.height };
    // A stream that reorders frames keeps its edit list in a plain file (exact frame times) and
    // plays as one file only; one that does not is fragmented like the encodes (hls.ts).
    out.push({ label: shortLabel(size), variant: renditionVariant(`${rung}p`), rung, copy: true, hls: !p.reorders, ...size, filters: [] });
  }
  let partial = false;
  for (const rung of rungs) {
    const size = fit(p, rung);
    // Never upscaled: a rung the source cannot fill collapses into the one above it.
    if (out.some((r) => Math.min(r.width, r.height) <= Math.min(size.width, size.height))) continue;
    if (path === 'remux' && !full) {
      partial = true;
      continue;
    }
    out.push(encoded(p, rung, size));
  }
  return { path, renditions: out, partial };
}

/**
 * ffmpeg's AAC encoder puts 1,024 samples of priming before the sound (its initial padding).
 * Fragmented MP4 has no edit list to hide them, so a muxer handed them at a negative time moves
 * every stream later by 1,024 samples (21.3 ms at 48 kHz), and every picture after the first
 * lands a frame late (issue 39).
 */
export const AAC_PRIMING_SAMPLES = 1024;

/**
 * The sound, made to start with the first picture at 0: shifted by the picture's start, padded
 * with silence or trimmed at its head to begin at exactly 0 (aresample's first_pts), and its first
 * 1,024 samples dropped where they would sit under the encoder's priming, which is then at 0
 * instead of before it. Every stream then starts at 0 and nothing is shifted; the sound is heard
 * where it was against the picture.
 */
function audioArgs(p: VideoProbe): string[] {
  if (!p.hasAudio) return ['-an'];
  const shift = (p.videoStart ?? 0).toFixed(6);
  const filters = [`asetpts=PTS-${shift}/TB`, 'aresample=48000:async=1:first_pts=0', `atrim=start_sample=${AAC_PRIMING_SAMPLES}`];
  return ['-map', '0:a:0', '-af', filters.join(','), '-c:a', 'aac', '-b:a', '128k', '-ar', '48000', '-ac', '2'];
}

/**
 * The picture's first frame at 0 and, for variable-rate sources, one frame every 1/fps (the
 * rate the app counts frames at: probe.ts), so frame k is at k/fps in every rendition.
 */
function timingFilters(p: VideoProbe): string[] {
  return ['setpts=PTS-STARTPTS', ...(p.frameRate ? [`fps=${p.frameRate}`] : [])];
}

function encodeArgs(p: VideoProbe, r: PlannedRendition, out: string): string[] {
  const hdrTags = isHdr(p) ? ['-color_primaries', 'bt709', '-color_trc', 'bt709', '-colorspace', 'bt709'] : [];
  return [
    '-map', '0:v:0', ...audioArgs(p),
    '-vf', [...timingFilters(p), ...r.filters].join(','),
    '-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high', '-crf', '23', '-pix_fmt', 'yuv420p',
    // No B-frames: fragmented MP4 has no edit list to hide their reorder delay, and the first
    // picture must sit at 0 so a note's time is the frame the reviewer saw (issue 29).
    '-bf', '0',
    // A keyframe every 2 s, whatever the frame rate, so seeking lands close.
    '-force_key_frames', 'expr:gte(t,n_forced*2)',
    ...hdrTags,
    '-map_metadata', '-1', '-sn', '-dn',
    // Fragmented, moov and index first: plays as one file and as HLS byte ranges (hls.ts).
    '-movflags', FRAGMENTED_MOVFLAGS, '-f', 'mp4', out,
  ];
}

/**
 * The picture copied; the sound made again as for the encodes (cheap next to the picture), since
 * a copied AAC track starts with its priming at a negative time (see AAC_PRIMING_SAMPLES). A
 * fragmented copy starts its picture at 0; a plain one keeps the source's edit list.
 */
function remuxArgs(p: VideoProbe, r: PlannedRendition, out: string): string[] {
  const flags = r.hls ? FRAGMENTED_MOVFLAGS : '+faststart';
  const start = r.hls ? ['-bsf:v', 'setts=ts=TS-STARTPTS'] : [];
  return ['-map', '0:v:0', ...audioArgs(p), '-c:v', 'copy', ...start, '-sn', '-dn', '-movflags', flags, '-f', 'mp4', out];
}

// A job's scratch files carry this marker, so a retaken job can remove what a killed worker left.
export { JOB_SCRATCH };

/** The one ffmpeg run that makes every rendition (exported for bench/video.mjs: the same command by hand). */
export function conversionArgs(p: VideoProbe, thePlan: Plan, input: MediaFile, outputs: string[]): string[] {
  return [...inputArgs(input), ...thePlan.renditions.flatMap((r, i) => (r.copy ? remuxArgs(p, r, outputs[i]!) : encodeArgs(p, r, outputs[i]!)))];
}

export function spriteArgs(input: string, layout: SpriteLayout, output: string, keyframesOnly = false): string[] {
  const scale = `scale=${layout.tileWidth}:${layout.tileHeight}`;
  // One tile is the first frame: the fps filter would emit nothing for a clip shorter than
  // its interval (a single frame), so it is left out.
  const filter = layout.count > 1 ? `fps=1/${layout.interval.toFixed(4)},${scale},tile=${layout.columns}x${layout.rows}` : scale;
  return [
    ...(keyframesOnly ? ['-skip_frame', 'nokey'] : []),
    // Cut from our own MP4 rendition.
    ...inputArgs({ path: input, mimeType: 'video/mp4' }),
    '-map', '0:v:0',
    '-vf', filter,
    // -y: a second attempt writes over what an earlier one may have left.
    '-frames:v', '1', '-q:v', '5', '-y', '-f', 'image2', '-c:v', 'mjpeg', output,
  ];
}

export const SPRITE_TILE_WIDTH = 160;
export const SPRITE_MAX_TILES = 100;

export type SpriteLayout = ReturnType<typeof spriteLayout>;

/** Tile count and spacing: one tile per second for short clips, at most 10x10. */
export function spriteLayout(durationSeconds: number, width: number, height: number) {
  const interval = Math.max(1, durationSeconds / SPRITE_MAX_TILES);
  const count = Math.max(1, Math.min(SPRITE_MAX_TILES, Math.ceil(durationSeconds / interval)));
  const columns = Math.min(10, count);
  const rows = Math.ceil(count / columns);
  const tileWidth = SPRITE_TILE_WIDTH;
  const tileHeight = even((SPRITE_TILE_WIDTH * height) / width);
  return { interval, count, columns, rows, tileWidth, tileHeight };
}

/** The same tile size, one tile (the first frame) standing for the whole clip. */
function oneTile(layout: SpriteLayout, durationSeconds: number): SpriteLayout {
  return { ...layout, interval: Math.max(durationSeconds, 0.001), count: 1, columns: 1, rows: 1 };
}

function vttTime(s: number): string {
  const ms = Math.round(s * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const sec = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(sec)}.${pad(ms % 1000, 3)}`;
}

export function spriteVtt(layout: SpriteLayout, durationSeconds: number, imageName: string): string {
  const cues = ['WEBVTT', ''];
  for (let i = 0; i < layout.count; i++) {
    const start = i * layout.interval;
    const end = Math.min(durationSeconds, (i + 1) * layout.interval);
    const x = (i % layout.columns) * layout.tileWidth;
    const y = Math.floor(i / layout.columns) * layout.tileHeight;
    cues.push(`${vttTime(start)} --> ${vttTime(Math.max(end, start + 0.001))}`, `${imageName}#xywh=${x},${y},${layout.tileWidth},${layout.tileHeight}`, '');
  }
  return cues.join('\n');
}

// Generous bit rates for crf 23 / veryfast output per rung, so the space check errs towards refusing.
const EXPECTED_VIDEO_BITS_PER_SECOND: Record<number, number> = { 2160: 40_000_000, 1080: 10_000_000, 720: 6_000_000, 360: 2_000_000 };
const EXPECTED_AUDIO_BITS_PER_SECOND = 128_000;
const EXPECTED_SPRITE_BYTES = 2 * 1024 * 1024;

/**
 * Bytes a job's outputs may take, for the free-space check before it starts: a copied
 * rendition (remux) is the original's size; an encoded one is duration times a generous rate
 * for its rung. Without a known duration, the original's size stands in for each.
 */
export function expectedOutputBytes(p: VideoProbe, originalBytes: number, full = true): number {
  const duration = p.durationSeconds;
  const audio = p.hasAudio ? EXPECTED_AUDIO_BITS_PER_SECOND : 0;
  const bytes = plan(p, full).renditions.reduce((sum, r) => {
    if (r.copy || !duration || duration <= 0) return sum + originalBytes;
    return sum + Math.ceil((((EXPECTED_VIDEO_BITS_PER_SECOND[r.rung] ?? 10_000_000) + audio) * duration) / 8);
  }, 0);
  return bytes + EXPECTED_SPRITE_BYTES;
}

export interface TranscodeOutcome {
  path: 'remux' | 'transcode';
  renditions: StoredRendition[];
  spriteUrl: string | null;
  /** Smaller rungs still to make (Plan.partial): the queue follows with an upgrade job. */
  partial: boolean;
}

/**
 * Converts `storageKey`'s original. `onProgress` gets 0-1. All outputs are scratch files
 * until every step succeeded; on any failure (or cancellation) they are removed.
 */
export async function transcode(
  storageKey: string,
  original: { variant: string; mimeType: string },
  p: VideoProbe,
  version: number,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
  full = true,
): Promise<TranscodeOutcome> {
  const input: MediaFile = { path: await storage.localPath(storageKey, original.variant), mimeType: original.mimeType };
  const thePlan = plan(p, full);
  const scratch = thePlan.renditions.map(() => storage.scratch(storageKey, JOB_SCRATCH + '.mp4'));
  const spriteScratch = storage.scratch(storageKey, JOB_SCRATCH + '.jpg');
  const vttScratch = storage.scratch(storageKey, JOB_SCRATCH + '.vtt');
  const playlistScratch = thePlan.renditions.map(() => storage.scratch(storageKey, JOB_SCRATCH + '.m3u8'));
  const masterScratch = storage.scratch(storageKey, JOB_SCRATCH + '.m3u8');
  const duration = p.durationSeconds;
  try {
    await runFfmpeg({ args: conversionArgs(p, thePlan, input, scratch), durationSeconds: duration, signal, onProgress: (f) => onProgress(f * 0.9) });
    // Nothing replaces a file until it shows the frame a note names (issue 39).
    for (const [i, r] of thePlan.renditions.entries()) {
      const off = await frameTimesOff(scratch[i]!, p.fps);
      if (off) throw new Error(`The ${r.label} proxy would not show the original's frames at their times (${off}); the earlier files are kept.`);
    }

    // The sprite is cut from the smallest rendition: decoding it is far cheaper than the original.
    const smallest = thePlan.renditions.length - 1;
    const small = thePlan.renditions[smallest]!;
    const spriteDuration = duration && duration > 0 ? duration : 1;
    const grid = spriteLayout(spriteDuration, small.width, small.height);
    const sprite = (layout: SpriteLayout, keyframesOnly: boolean) =>
      runFfmpeg({
        args: spriteArgs(scratch[smallest]!, layout, spriteScratch, keyframesOnly),
        durationSeconds: duration,
        signal,
        onProgress: (f) => onProgress(0.9 + f * 0.09),
      }).then(() => nonEmpty(spriteScratch));
    // A copied rendition keeps the source's full resolution and GOP, so decoding every frame for 100 small
    // tiles would cost most of the job: keyframes are enough. A source with too few keyframes to
    // fill the grid writes no image; then every frame is decoded after all. A clip whose frames
    // end long before its claimed duration fills no grid at all: one tile of its first frame.
    let layout: SpriteLayout | null = grid;
    const made = (small.copy && (await sprite(grid, true))) || (await sprite(grid, false));
    if (!made) {
      layout = oneTile(grid, spriteDuration);
      if (grid.count === 1 || !(await sprite(layout, false))) layout = null;
    }
    if (layout) await writeFile(vttScratch, spriteVtt(layout, spriteDuration, `${VARIANTS.sprite}?v=${version}`));

    const streamed = await writePlaylists(thePlan, scratch, playlistScratch, masterScratch, version);

    for (let i = 0; i < scratch.length; i++) {
      const r = thePlan.renditions[i]!;
      await storage.commit(storageKey, scratch[i]!, r.variant);
      if (r.hls) await storage.commit(storageKey, playlistScratch[i]!, playlistVariant(r.variant));
      else await storage.remove(storageKey, playlistVariant(r.variant)).catch(() => {});
    }
    // Last: a master never names a media playlist that is not in place yet.
    if (streamed) await storage.commit(storageKey, masterScratch, VARIANTS.master);
    else await storage.remove(storageKey, VARIANTS.master).catch(() => {});
    await storage.discard(...playlistScratch, masterScratch);
    if (layout) {
      await storage.commit(storageKey, spriteScratch, VARIANTS.sprite);
      await storage.commit(storageKey, vttScratch, VARIANTS.spriteMap);
    } else {
      // Nothing to cut a picture from (ffmpeg wrote none): the player goes without a seek-bar
      // sprite rather than the job failing; one from an earlier run no longer matches.
      await storage.discard(spriteScratch, vttScratch);
      for (const v of [VARIANTS.sprite, VARIANTS.spriteMap]) await storage.remove(storageKey, v).catch(() => {});
    }
    // A smaller plan than last time (reprocess): drop renditions no longer made.
    for (const rung of RUNGS) {
      const variant = renditionVariant(`${rung}p`);
      if (thePlan.renditions.some((r) => r.variant === variant)) continue;
      for (const v of [variant, playlistVariant(variant)]) await storage.remove(storageKey, v).catch(() => {});
    }
    return {
      path: thePlan.path,
      // A partial ladder carries no mark, so a lost upgrade job is queued again by the backfill.
      renditions: thePlan.renditions.map(({ label, variant, width, height, hls }) => ({ label, variant, width, height, version, ladder: thePlan.partial ? 0 : LADDER, hls: !!hls })),
      spriteUrl: layout ? `${mediaUrl(storageKey, VARIANTS.spriteMap)}?v=${version}` : null,
      partial: thePlan.partial,
    };
  } catch (e) {
    await storage.discard(...scratch, ...playlistScratch, masterScratch, spriteScratch, vttScratch);
    throw e;
  }
}

/**
 * One media playlist per proxy (byte ranges of the file itself) and the version's master, the
 * proxy players get by default first. Addresses are relative, so the same playlists work under
 * /media/<key>/ and under a share link's /s/<token>/m/<id>/, each with its own access checks.
 */
async function writePlaylists(thePlan: Plan, proxies: string[], playlists: string[], master: string, version: number): Promise<boolean> {
  const variants: (Variant & { rendition: PlannedRendition })[] = [];
  for (let i = 0; i < proxies.length; i++) {
    const r = thePlan.renditions[i]!;
    if (!r.hls) continue; // a plain faststart copy (see plan): played as one file only
    const index = await fragmentIndex(proxies[i]!);
    await writeFile(playlists[i]!, mediaPlaylist(index, `${r.variant}?v=${version}`));
    variants.push({ index, width: r.width, height: r.height, uri: `${playlistVariant(r.variant)}?v=${version}`, rendition: r });
  }
  if (!variants.length) return false;
  const start = progressive(variants.map((v) => v.rendition));
  const first = Math.max(0, variants.findIndex((v) => v.rendition === start));
  await writeFile(master, masterPlaylist([variants[first]!, ...variants.filter((_, i) => i !== first)]));
  return true;
}

async function nonEmpty(file: string): Promise<boolean> {
  return stat(file).then((s) => s.size > 0, () => false);
}
