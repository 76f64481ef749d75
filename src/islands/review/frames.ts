// Frame-accurate note times (issue 29), one set of helpers for the admin dialog, the portal and
// the share page: a time in milliseconds shown as mm:ss.ff (frames at the version's probed
// rate) with its SMPTE timecode, and the time field's text in seconds.
import { smpteTimecode } from '../../shared/schemas/review.ts';
import { fpsOf, frameIndex } from '../ui/frame-grid.ts';

export { FALLBACK_FPS, fpsOf, frameIndex, frameSeekTime } from '../ui/frame-grid.ts';

/** mm:ss.ff (h:mm:ss.ff from an hour): whole seconds, then the frame within that second. */
export function formatFrameTime(ms: number, fps: number | null | undefined): string {
  const rate = fpsOf(fps);
  const t = (frameIndex(ms, fps) + 0.01) / rate;
  const s = Math.floor(t);
  const ff = Math.floor((t - s) * rate + 1e-6);
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const mmss = `${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}.${pad(ff)}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

/** The SMPTE timecode of the frame shown at `ms` (null when the rate is unknown). */
export function frameTimecode(ms: number, fps: number | null | undefined, start: string | null = null): string | null {
  if (!fps || !Number.isFinite(fps) || fps <= 0) return null;
  return smpteTimecode((frameIndex(ms, fps) + 0.5) / fps, fps, start);
}

/** The time field's text for a playhead position: seconds, to the millisecond. */
export function secondsText(seconds: number): string {
  return String(Math.round(Math.max(0, seconds) * 1000) / 1000);
}

/** The time field's text read as milliseconds: null when it is not a number of seconds ≥ 0. */
export function parseSecondsText(text: string): number | null {
  const t = text.trim();
  if (t === '') return 0;
  const n = Number(t);
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 1000) : null;
}

/** The body fields of a note's time: the exact `timestampMs` and the documented whole seconds. */
export function noteTimeBody(ms: number): { timestampMs: number; timestampSeconds: number } {
  return { timestampMs: ms, timestampSeconds: Math.floor(ms / 1000) };
}

/** A note's start in milliseconds, from an API row (older rows: whole seconds). */
export function noteMs(n: { timestampMs?: number | null; timestampSeconds?: number | null }): number {
  return n.timestampMs ?? (n.timestampSeconds ?? 0) * 1000;
}
