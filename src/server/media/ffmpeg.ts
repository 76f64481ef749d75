// ffmpeg/ffprobe helpers. Both are optional: without them a video upload still succeeds,
// just without poster, duration or size. Always spawned with an argument list, never a shell.
import { spawn } from 'node:child_process';
import { config } from '../config.ts';
import { demuxerFor } from './detect.ts';

/** The executable configured for a tool name (FFMPEG_PATH / FFPROBE_PATH). */
export function toolPath(name: 'ffmpeg' | 'ffprobe'): string {
  return name === 'ffmpeg' ? config.FFMPEG_PATH : config.FFPROBE_PATH;
}

const TIMEOUT_MS = 120_000;

/** A file ffmpeg reads, with the type its first bytes were sniffed as. */
export interface MediaFile {
  path: string;
  mimeType: string;
}

/**
 * The input options of every ffmpeg/ffprobe run: only local files and pipes may be opened
 * (a playlist or manifest inside a file cannot reach the network or other protocols), and
 * the demuxer is the sniffed type's, never ffmpeg's own guess.
 */
export function inputArgs(file: MediaFile): string[] {
  const format = demuxerFor(file.mimeType);
  if (!format) throw new Error(`No ffmpeg input format for ${file.mimeType}`);
  return ['-protocol_whitelist', 'file,pipe', '-f', format, '-i', file.path];
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function run(tool: 'ffmpeg' | 'ffprobe', args: string[], timeoutMs = TIMEOUT_MS): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(toolPath(tool), args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length < 1_000_000) stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < 20_000) stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const available = new Map<string, Promise<boolean>>();

/**
 * Whether a tool is installed. A positive answer is kept for the process; a negative one
 * only until `recheck`, so a worker notices ffmpeg once it is installed.
 */
export function hasTool(name: 'ffmpeg' | 'ffprobe', recheck = false): Promise<boolean> {
  let p = available.get(name);
  if (recheck && p) {
    const prev = p;
    p = prev.then((ok) => (ok ? true : run(name, ['-version'], 10_000).then((r) => r.code === 0, () => false)));
    available.set(name, p);
    return p;
  }
  if (!p) {
    p = run(name, ['-version'], 10_000).then(
      (r) => r.code === 0,
      () => false,
    );
    available.set(name, p);
  }
  return p;
}

export interface VideoInfo {
  durationSeconds: number | null;
  width: number | null;
  height: number | null;
}

/** Duration and frame size via ffprobe; nulls when it is missing or cannot read the file. */
export async function probeVideo(file: MediaFile): Promise<VideoInfo> {
  const none: VideoInfo = { durationSeconds: null, width: null, height: null };
  if (!(await hasTool('ffprobe'))) return none;
  try {
    const r = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...inputArgs(file)]);
    if (r.code !== 0) return none;
    const info = JSON.parse(r.stdout) as {
      format?: { duration?: string };
      streams?: { codec_type?: string; width?: number; height?: number; duration?: string; tags?: { rotate?: string }; side_data_list?: { rotation?: number }[] }[];
    };
    const video = info.streams?.find((s) => s.codec_type === 'video');
    const duration = Number(info.format?.duration ?? video?.duration);
    let width = video?.width ?? null;
    let height = video?.height ?? null;
    const rotation = Math.abs(Number(video?.tags?.rotate ?? video?.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? 0));
    if (rotation === 90 || rotation === 270) [width, height] = [height, width];
    return {
      durationSeconds: Number.isFinite(duration) && duration >= 0 ? Math.round(duration) : null,
      width: width && width > 0 ? width : null,
      height: height && height > 0 ? height : null,
    };
  } catch {
    return none;
  }
}

/** Writes one frame (at `atSeconds`, else the first) as JPEG. Returns false when it cannot. */
export async function extractFrame(file: MediaFile, out: string, atSeconds = 2): Promise<boolean> {
  if (!(await hasTool('ffmpeg'))) return false;
  for (const at of atSeconds > 0 ? [atSeconds, 0] : [0]) {
    try {
      const r = await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-ss', String(at), ...inputArgs(file), '-frames:v', '1', '-q:v', '3', '-f', 'image2', '-c:v', 'mjpeg', out]);
      if (r.code === 0) {
        const { stat } = await import('node:fs/promises');
        const s = await stat(out).catch(() => null);
        if (s && s.size > 0) return true;
      }
    } catch {
      return false;
    }
  }
  return false;
}

/** Fonts drawtext may use for demo titles (Debian's fonts-dejavu-core first). */
const TITLE_FONTS = ['/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf', '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'];

export interface DemoClipLook {
  /** Two gradient colours (hex, "#rrggbb") drifting across the frame. */
  colours: [string, string];
  /** The title drawn in the middle, fading in. */
  title: string;
}

/**
 * For the demo seed: a short clip that reads as footage (a drifting two-colour gradient with
 * a soft vignette, film grain and the title fading in), not a test card (issue 32). Falls back
 * to no title without a font, and to a plain test pattern where the filters are missing.
 */
export async function generateDemoClip(out: string, opts: { seconds: number; width: number; height: number; look: DemoClipLook; fallbackPattern: string }): Promise<boolean> {
  if (!(await hasTool('ffmpeg'))) return false;
  const { seconds, width, height, look } = opts;
  const hex = (c: string) => `0x${c.replace('#', '')}`;
  const base = `gradients=s=${width}x${height}:r=24:d=${seconds}:c0=${hex(look.colours[0])}:c1=${hex(look.colours[1])}:x0=0:y0=0:x1=${width}:y1=${height}:speed=0.03,vignette=PI/5,noise=alls=7:allf=t`;
  const { access, rm, writeFile } = await import('node:fs/promises');
  let font: string | null = null;
  for (const f of TITLE_FONTS) if (await access(f).then(() => true, () => false)) (font ??= f);
  // The title goes through a file: any quote, colon or percent in it stays text (expansion off).
  const titleFile = `${out}.title.txt`;
  if (font) await writeFile(titleFile, look.title);
  const title = font ? `,drawtext=fontfile=${font}:textfile=${titleFile}:expansion=none:fontcolor=white:fontsize=h/12:x=(w-text_w)/2:y=(h-text_h)/2:alpha='min(1,t/1.2)':shadowcolor=black@0.6:shadowx=2:shadowy=2` : '';
  const encode = (src: string) =>
    run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', src, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', out]).then(
      (r) => r.code === 0,
      () => false,
    );
  try {
    for (const src of [base + title, base, `${opts.fallbackPattern}=duration=${seconds}:size=${width}x${height}:rate=24`]) {
      if (await encode(src)) return true;
    }
    return false;
  } finally {
    await rm(titleFile, { force: true });
  }
}
