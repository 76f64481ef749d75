// The frame grid of a video at its rate: which frame a time falls in, and where to seek to show
// a frame. No imports, so every player (paused-frame.ts, the public one too) takes it without
// the review schemas; review/frames.ts re-exports it for the review code.

/** The rate used when the version's was not probed. */
export const FALLBACK_FPS = 25;

export function fpsOf(fps: number | null | undefined): number {
  return fps && Number.isFinite(fps) && fps > 0 ? fps : FALLBACK_FPS;
}

/**
 * The frame shown at `ms`. A little slack (5 % of a frame) absorbs the rounding of a frame's
 * start to whole milliseconds (40/3 ms at 75 fps is stored as 13), so a stored frame start is
 * read back as its own frame and not the one before.
 */
export function frameIndex(ms: number, fps: number | null | undefined): number {
  return Math.max(0, Math.floor((ms * fpsOf(fps)) / 1000 + 0.05));
}

/**
 * Where to seek to show frame `k`: its start and a tenth of a millisecond. A double's k/fps can
 * be a hair short of the frame's start (10 steps of 0.04 make 0.39999999999999997), and a
 * browser that truncates the time to its media clock then shows frame k-1 (issue 39). The tenth
 * of a millisecond keeps the time field and a saved note on the frame's start (they round to
 * the millisecond).
 */
export function frameSeekTime(k: number, fps: number | null | undefined): number {
  return Math.max(0, k) / fpsOf(fps) + 0.0001;
}
