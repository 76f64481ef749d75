// Whether a file the pipeline made keeps the original's frame times (issue 39): its first
// picture at 0, picture k at k/fps, and no sound before 0 (a stream handed to the muxer before
// 0 makes it move every stream later). Read from the packets' timestamps (no decoding), so a
// check costs a few milliseconds: run on every new rendition before it replaces anything, and
// on a library's existing renditions when the app is upgraded (the repair job, queue.ts).
import { run } from '../media/ffmpeg.ts';

/** How far a picture may sit from k/fps: a millisecond, as the issue asks. */
export const FRAME_TOLERANCE_SECONDS = 0.001;

/** Pictures looked at: enough to see a shifted timeline, few enough to stay cheap. */
const PICTURES = 12;

async function packetTimes(file: string, stream: 'v:0' | 'a:0', count: number): Promise<number[] | null> {
  const r = await run('ffprobe', ['-v', 'error', '-select_streams', stream, '-read_intervals', `%+#${count}`, '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', file]);
  if (r.code !== 0) return null;
  return r.stdout
    .split('\n')
    .map((l) => l.split(',')[0]!.trim())
    .filter((l) => l && l !== 'N/A')
    .map(Number)
    .filter(Number.isFinite);
}

/**
 * Null when `file` keeps exact frame times at `fps` (the rate the app counts at; null: only the
 * first picture's time is checked), else what is wrong, in words for the job's error.
 */
export async function frameTimesOff(file: string, fps: number | null): Promise<string | null> {
  const video = await packetTimes(file, 'v:0', PICTURES + 4);
  if (!video?.length) return 'no pictures could be read';
  // Packets come in decoding order; pictures are shown in time order. The last few may still
  // wait for a reordered picture that was not read, so only the first PICTURES count.
  const shown = [...video].sort((a, b) => a - b).slice(0, Math.min(PICTURES, video.length));
  if (Math.abs(shown[0]!) > FRAME_TOLERANCE_SECONDS) return `the first picture is at ${ms(shown[0]!)} instead of 0`;
  if (fps) {
    const k = shown.findIndex((t, i) => Math.abs(t - i / fps) > FRAME_TOLERANCE_SECONDS);
    if (k >= 0) return `picture ${k} is at ${ms(shown[k]!)} instead of ${ms(k / fps)}`;
  }
  const audio = await packetTimes(file, 'a:0', 1);
  if (audio?.length && audio[0]! < -FRAME_TOLERANCE_SECONDS / 2) return `the sound starts at ${ms(audio[0]!)}, before the picture`;
  return null;
}

const ms = (seconds: number) => `${(seconds * 1000).toFixed(1)} ms`;
