// Footage whose every frame carries its own number (issue 39): BITS horizontal bands, the top
// one bit 0, white for 1 and black for 0. The number survives scaling to any rung, chroma
// subsampling and a watermark in a corner, so a rendition's frame k can be read back from its
// picture: by ffmpeg here, and from a canvas in the browser (readShownFrame).
import { execFileSync } from 'node:child_process';
import { ffmpegFixture } from './fixture-cache.ts';

export const BITS = 11;


/** ffmpeg's geq expression of the bands: frame N's bit `floor(Y * BITS / H)` as white or black. */
const BANDS = `geq=lum='255*mod(floor(N/pow(2\\,floor(Y*${BITS}/H)))\\,2)':cb=128:cr=128`;

export type VideoKind = 'prores' | 'h264' | 'h264-bframes' | 'hevc' | 'vp9' | 'mpeg4';
export type AudioKind = 'aac' | 'pcm' | 'opus';

export interface FrameSourceSpec {
  /** ffmpeg's rate: '25', '30000/1001', '24000/1001', '50', '60000/1001'. */
  rate: string;
  seconds: number;
  video: VideoKind;
  audio?: { codec: AudioKind; sampleRate: 44100 | 48000 } | null;
  container: 'mov' | 'mp4' | 'mkv' | 'webm' | 'avi';
  /** Drawn small and scaled up by nearest neighbour (cheap even at 3840x2160). */
  size?: string;
  /** A start timecode written into the file (mov/mp4), e.g. '01:00:00:00'. */
  timecode?: string;
  /** Seconds the sound starts after the picture (a camera whose audio starts late). */
  audioLate?: number;
  /**
   * Seconds the sound starts before the picture (a recorder started first). Its tone then begins
   * half a second after the picture's first frame, silence before it, so where the tone lands
   * in a rendition tells whether the sound kept its place against the picture.
   */
  audioEarly?: number;
  /**
   * Variable frame rate, as phones record: frames are held for 2/3, then 4/3 of a frame in
   * turn, so the times wander around the nominal rate.
   */
  variable?: boolean;
}

const VIDEO_ARGS: Record<VideoKind, string[]> = {
  prores: ['-c:v', 'prores_ks', '-profile:v', '2', '-pix_fmt', 'yuv422p10le'],
  h264: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '50'],
  // B-frames: frames stored out of order, as cameras' and editors' H.264 exports have them.
  'h264-bframes': ['-c:v', 'libx264', '-preset', 'veryfast', '-bf', '3', '-pix_fmt', 'yuv420p', '-g', '50'],
  hevc: ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error', '-pix_fmt', 'yuv420p', '-tag:v', 'hvc1'],
  vp9: ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '400k'],
  mpeg4: ['-c:v', 'mpeg4', '-q:v', '4'],
};

const AUDIO_ARGS: Record<AudioKind, string[]> = {
  aac: ['-c:a', 'aac', '-b:a', '96k'],
  pcm: ['-c:a', 'pcm_s16le'],
  opus: ['-c:a', 'libopus', '-b:a', '64k'],
};

export function specName(s: FrameSourceSpec): string {
  const audio = s.audio ? `${s.audio.codec} ${s.audio.sampleRate / 1000} kHz` : 'silent';
  const extra = [s.size, s.timecode && `timecode ${s.timecode}`, s.audioLate && `sound ${s.audioLate} s late`, s.audioEarly && `sound ${s.audioEarly} s early`, s.variable && 'variable rate'].filter(Boolean);
  return `${s.video} ${s.container} at ${s.rate} fps, ${audio}${extra.length ? ` (${extra.join(', ')})` : ''}`;
}

/** The source file for a spec, made once per machine (tests/helpers/fixture-cache.ts): read it, never change it. */
export function frameSource(spec: FrameSourceSpec): string {
  const [w, h] = (spec.size ?? '320x176').split('x').map(Number) as [number, number];
  const small = w > 640 ? `${Math.round(w / 8)}x${Math.round(h / 8)}` : `${w}x${h}`;
  const up = w > 640 ? `,scale=${w}:${h}:flags=neighbor` : '';
  const inputs: string[] = [];
  // The picture starts later than the sound: its input is offset, as -itsoffset does for a late sound.
  if (spec.audioEarly) inputs.push('-itsoffset', String(spec.audioEarly));
  if (spec.variable) {
    // Frames numbered by the generator, then given uneven times: a clock of 2/(3·rate), frame n
    // at 3n/2 ticks rounded down, so gaps alternate 1 and 2 ticks (on average one frame).
    inputs.push('-f', 'lavfi', '-i', `color=black:s=${small}:r=${spec.rate}:d=${spec.seconds},${BANDS}${up},settb=1/90000,setpts='floor(N*3/2)*2/(3*${spec.rate})/TB'`);
  } else {
    inputs.push('-f', 'lavfi', '-i', `color=black:s=${small}:r=${spec.rate}:d=${spec.seconds},${BANDS}${up}`);
  }
  if (spec.audio) {
    if (spec.audioLate) inputs.push('-itsoffset', String(spec.audioLate));
    // With an early sound: silent until half a second after the first picture, then the tone.
    const silence = spec.audioEarly ? spec.audioEarly + 0.5 : 0;
    const tone = `sine=frequency=440:sample_rate=${spec.audio.sampleRate}:duration=${spec.seconds - silence}`;
    inputs.push('-f', 'lavfi', '-i', silence ? `${tone},adelay=delays=${Math.round(silence * 1000)}:all=1` : tone);
  }
  const args = [
    ...inputs,
    '-map', '0:v', ...(spec.audio ? ['-map', '1:a'] : []),
    ...VIDEO_ARGS[spec.video],
    ...(spec.variable ? ['-fps_mode', 'passthrough', '-video_track_timescale', '90000'] : []),
    ...(spec.audio ? AUDIO_ARGS[spec.audio.codec] : []),
    ...(spec.timecode ? ['-timecode', spec.timecode] : []),
  ];
  return ffmpegFixture(args, spec.container);
}

/** Presentation times (s) of a file's video frames, in order, as ffprobe reads them. */
export function frameTimes(file: string): number[] {
  const out = execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'frame=pts_time', '-of', 'csv=p=0', file], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return out
    .split('\n')
    .map((l) => l.split(',')[0]!.trim())
    .filter(Boolean)
    .map(Number);
}

/** The first audio packet's presentation time (s), or null without sound. */
export function firstAudioTime(file: string): number | null {
  const out = execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'a:0', '-read_intervals', '%+#1', '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', file], { encoding: 'utf8' });
  const first = out.split('\n').map((l) => l.split(',')[0]!.trim()).find(Boolean);
  return first === undefined ? null : Number(first);
}

/** Rows per band and columns of the small strip a picture is reduced to before reading. */
const ROWS = 8;
const COLUMNS = 8;

/**
 * A band is white when most of three columns (left, middle, right) say so: a watermark's
 * text over one of them cannot change the number.
 */
function bandsToNumber(grey: (bit: number, column: number) => number, bits: number, columns: number): number {
  let n = 0;
  for (let bit = 0; bit < bits; bit++) {
    const votes = [1, columns >> 1, columns - 2].filter((c) => grey(bit, c) > 128).length;
    if (votes >= 2) n |= 1 << bit;
  }
  return n;
}

/** The number each decoded frame carries in its bands, in presentation order. */
export function frameNumbers(file: string): number[] {
  // A strip COLUMNS wide and BITS·ROWS tall: each band becomes ROWS rows; its middle row is read.
  // -v fatal: a 1 ms time base (WebM) makes rawvideo warn of equal timestamps; a failure still throws.
  const raw = execFileSync('ffmpeg', ['-v', 'fatal', '-i', file, '-map', '0:v:0', '-fps_mode', 'passthrough', '-vf', `scale=${COLUMNS}:${BITS * ROWS}:flags=area,format=gray`, '-f', 'rawvideo', '-'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const frame = COLUMNS * BITS * ROWS;
  const numbers: number[] = [];
  for (let at = 0; at + frame <= raw.length; at += frame) {
    numbers.push(bandsToNumber((bit, column) => raw[at + (bit * ROWS + ROWS / 2) * COLUMNS + column]!, BITS, COLUMNS));
  }
  return numbers;
}

/**
 * Runs in the page (pass it to page.evaluate): the number on the picture a <video> shows now,
 * read through a canvas. BITS is passed in since the function is serialised on its own.
 */
export function readShownFrame(arg: { selector: string; bits: number }): number | null {
  const video = document.querySelector<HTMLVideoElement>(arg.selector);
  if (!video || video.readyState < 2 || !video.videoWidth) return null;
  // The same reading as frameNumbers (a function passed to evaluate cannot call its module).
  const canvas = document.createElement('canvas');
  canvas.width = 8;
  canvas.height = arg.bits * 8;
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
  const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  let n = 0;
  for (let bit = 0; bit < arg.bits; bit++) {
    const votes = [1, 4, 6].filter((x) => pixels[((bit * 8 + 4) * canvas.width + x) * 4]! > 128).length;
    if (votes >= 2) n |= 1 << bit;
  }
  return n;
}
