// What ffprobe says about a video, reduced to the facts the pipeline decides on: whether it
// has a decodable picture, whether a browser can play it as it is, whether a remux is enough,
// and how to convert it (rotation, HDR transfer, frame rate, duration, audio).
import { hasTool, inputArgs, run, type MediaFile } from './ffmpeg.ts';
import { UnreadableMediaError } from './derivatives.ts';

export interface VideoProbe {
  container: string;
  videoCodec: string;
  profile: string | null;
  pixFmt: string | null;
  bitDepth: number;
  colorTransfer: string | null;
  colorPrimaries: string | null;
  colorSpace: string | null;
  /** Clockwise degrees the picture is shown rotated by (0, 90, 180, 270). */
  rotation: number;
  /** Coded size (before rotation). */
  codedWidth: number;
  codedHeight: number;
  /** Displayed size (after rotation). */
  width: number;
  height: number;
  /**
   * The rate frames are counted at (the frame step, notes, exports): the stream's own for
   * constant-rate video; for variable-rate video (phones) the standard rate nearest its average,
   * at which every rendition is made constant (frame k of the app is frame k of the renditions).
   */
  fps: number | null;
  /** The same rate as ffmpeg writes it ('30000/1001'); absent on older stored probes. */
  frameRate?: string | null;
  /** Frame times are uneven (ffprobe's r_frame_rate and avg_frame_rate differ): never copied as is. */
  variableRate?: boolean;
  /**
   * Seconds from the file's start (its earliest stream) to the first picture, as ffmpeg shifts
   * them: sound before the picture is trimmed and sound after it padded, so every rendition's
   * first frame is at 0 and the sound stays where it was against the picture.
   */
  videoStart?: number;
  durationSeconds: number | null;
  bitRate: number | null;
  startTimecode: string | null;
  hasAudio: boolean;
  audioCodec: string | null;
  /**
   * The video reorders frames (B-frames: ffprobe's has_b_frames). A copy of such a stream into
   * fragmented MP4 would start its pictures a few frames late (no edit list there), so it is
   * copied as a plain faststart file instead (jobs/transcode.ts). Absent on older stored probes.
   */
  reorders?: boolean;
}

interface RawStream {
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  pix_fmt?: string;
  bits_per_raw_sample?: string;
  color_transfer?: string;
  color_primaries?: string;
  color_space?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  start_time?: string;
  duration?: string;
  bit_rate?: string;
  has_b_frames?: number;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string; timecode?: string };
  side_data_list?: { rotation?: number }[];
}

function rate(text: string | undefined): number | null {
  if (!text) return null;
  const [n, d] = text.split('/').map(Number);
  const v = d ? n! / d : n!;
  return Number.isFinite(v) && v > 0 && v < 1000 ? v : null;
}

/** The rates cameras and editors use; a variable-rate clip is counted at the nearest. */
const STANDARD_RATES = ['24000/1001', '24', '25', '30000/1001', '30', '48', '50', '60000/1001', '60', '100', '120000/1001', '120'];

/**
 * The rate frames are counted and made at: the stream's own when its frames are evenly spaced,
 * else the standard rate nearest the average (within 3 %), else the average to a thousandth.
 */
export function reviewRate(rFrameRate: string | undefined, avgFrameRate: string | undefined): { fps: number; frameRate: string; variable: boolean } | null {
  const r = rate(rFrameRate);
  const avg = rate(avgFrameRate);
  const base = avg ?? r;
  if (base == null) return null;
  const variable = r != null && avg != null && Math.abs(r - avg) / avg > 0.001;
  if (!variable) {
    const text = avg != null ? avgFrameRate! : rFrameRate!;
    return { fps: base, frameRate: text.includes('/') ? text : `${text}/1`, variable };
  }
  let best = STANDARD_RATES[0]!;
  for (const s of STANDARD_RATES) if (Math.abs(rate(s)! - avg!) < Math.abs(rate(best)! - avg!)) best = s;
  if (Math.abs(rate(best)! - avg!) / avg! <= 0.03) return { fps: rate(best)!, frameRate: best.includes('/') ? best : `${best}/1`, variable };
  const thousandths = Math.round(avg! * 1000);
  return { fps: thousandths / 1000, frameRate: `${thousandths}/1000`, variable };
}

function bitDepthOf(s: RawStream): number {
  const raw = Number(s.bits_per_raw_sample);
  if (Number.isFinite(raw) && raw > 0) return raw;
  const m = /p(\d{2})(le|be)?$/.exec(s.pix_fmt ?? '');
  return m ? Number(m[1]) : 8;
}

/**
 * ffprobe's facts, or null when the file has no video stream ffprobe can read (a
 * polyglot with a video header, a truncated file). Throws when ffprobe is not installed.
 */
export async function probeFile(file: MediaFile): Promise<VideoProbe | null> {
  const r = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...inputArgs(file)]);
  if (r.code !== 0) return null;
  let info: { format?: { format_name?: string; start_time?: string; duration?: string; bit_rate?: string; tags?: { timecode?: string } }; streams?: RawStream[] };
  try {
    info = JSON.parse(r.stdout);
  } catch {
    return null;
  }
  const streams = info.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic && s.codec_name && (s.width ?? 0) > 0 && (s.height ?? 0) > 0);
  if (!video) return null;
  const audio = streams.find((s) => s.codec_type === 'audio');
  const rawRotation = Number(video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video.tags?.rotate ?? 0);
  // Display-matrix rotation is counter-clockwise in ffprobe's side data; normalise to 0-359 clockwise.
  const rotation = ((Math.round((-rawRotation) / 90) * 90) % 360 + 360) % 360;
  const swap = rotation === 90 || rotation === 270;
  const duration = Number(info.format?.duration ?? video.duration);
  const bitRate = Number(info.format?.bit_rate ?? video.bit_rate);
  const rates = reviewRate(video.r_frame_rate, video.avg_frame_rate);
  // ffmpeg counts every stream from the file's earliest start (format start_time).
  const videoStart = Number(video.start_time) - Number(info.format?.start_time ?? video.start_time);
  return {
    container: info.format?.format_name ?? '',
    videoCodec: video.codec_name!,
    profile: video.profile ?? null,
    pixFmt: video.pix_fmt ?? null,
    bitDepth: bitDepthOf(video),
    colorTransfer: video.color_transfer ?? null,
    colorPrimaries: video.color_primaries ?? null,
    colorSpace: video.color_space ?? null,
    rotation,
    codedWidth: video.width!,
    codedHeight: video.height!,
    width: swap ? video.height! : video.width!,
    height: swap ? video.width! : video.height!,
    fps: rates?.fps ?? null,
    frameRate: rates?.frameRate ?? null,
    variableRate: rates?.variable ?? false,
    videoStart: Number.isFinite(videoStart) && videoStart > 0 ? videoStart : 0,
    durationSeconds: Number.isFinite(duration) && duration >= 0 ? duration : null,
    bitRate: Number.isFinite(bitRate) && bitRate > 0 ? bitRate : null,
    startTimecode: video.tags?.timecode ?? info.format?.tags?.timecode ?? null,
    hasAudio: !!audio,
    audioCodec: audio?.codec_name ?? null,
    reorders: Number(video.has_b_frames ?? 0) > 0,
  };
}

/** Decodes the first video frame: true when the picture is really there. */
export async function decodesAFrame(file: MediaFile): Promise<boolean> {
  const r = await run('ffmpeg', ['-v', 'error', '-nostdin', ...inputArgs(file), '-map', '0:v:0', '-frames:v', '1', '-f', 'null', '-'], 60_000).catch(() => null);
  return r?.code === 0;
}

const UNREADABLE = 'The video could not be read: it has no playable video stream. Is the file damaged, or not really a video?';

/**
 * The upload check: probe, then decode one frame. Refuses (UnreadableMediaError, answered
 * 415) a file with video magic bytes but no picture. Null when ffprobe is not installed.
 */
export async function probeUpload(file: MediaFile): Promise<VideoProbe | null> {
  if (!(await hasTool('ffprobe'))) return null;
  const p = await probeFile(file);
  if (!p) throw new UnreadableMediaError(UNREADABLE);
  if ((await hasTool('ffmpeg')) && !(await decodesAFrame(file))) throw new UnreadableMediaError(UNREADABLE);
  return p;
}

export const HDR_TRANSFERS = new Set(['smpte2084', 'arib-std-b67']);

export function isHdr(p: VideoProbe): boolean {
  return !!p.colorTransfer && HDR_TRANSFERS.has(p.colorTransfer);
}

const isMp4Family = (p: VideoProbe) => /(^|,)(mov|mp4)(,|$)/.test(p.container);
const isWebm = (p: VideoProbe) => /(^|,)webm(,|$)/.test(p.container) || /matroska/.test(p.container);

/** A browser (Chromium, Safari, Firefox) plays the original as it is. */
export function browserPlayable(p: VideoProbe, mimeType: string): boolean {
  if (p.bitDepth !== 8 || isHdr(p)) return false;
  if (p.pixFmt && !/^yuvj?420p$/.test(p.pixFmt)) return false;
  const audioOk = !p.hasAudio || ['aac', 'mp3', 'opus', 'vorbis'].includes(p.audioCodec ?? '');
  if (!audioOk) return false;
  if (mimeType === 'video/mp4' || mimeType === 'video/quicktime') return isMp4Family(p) && ['h264', 'av1', 'vp9'].includes(p.videoCodec);
  if (mimeType === 'video/webm') return isWebm(p) && ['vp8', 'vp9', 'av1'].includes(p.videoCodec);
  return false;
}

/** Highest bit rate we pass through untouched: above it a review proxy is worth encoding. */
export const REMUX_MAX_BITS_PER_PIXEL_SECOND = 0.5;

/**
 * Already what the proxies are (H.264 8-bit 4:2:0, AAC or silent, MP4/MOV, at most 1080p,
 * upright, a sane bit rate): copying the streams with +faststart is enough.
 */
export function canRemux(p: VideoProbe): boolean {
  if (p.videoCodec !== 'h264' || p.bitDepth !== 8 || !/^yuvj?420p$/.test(p.pixFmt ?? '') || isHdr(p)) return false;
  if (!isMp4Family(p)) return false;
  // A copy keeps uneven frame times: frame k would not be at k/fps (see fps above).
  if (p.variableRate) return false;
  if (p.hasAudio && p.audioCodec !== 'aac') return false;
  if (p.rotation !== 0) return false;
  if (Math.max(p.width, p.height) > 1920 || Math.min(p.width, p.height) > 1080) return false;
  const fps = p.fps ?? 30;
  if (p.bitRate && p.bitRate > p.width * p.height * fps * REMUX_MAX_BITS_PER_PIXEL_SECOND + 2_000_000) return false;
  return true;
}

