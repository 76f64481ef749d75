// How far apart two videos' pictures are, from the frames each showed (requestVideoFrameCallback):
// shared by the compare browser test and bench/compare.mjs, so both measure the same thing.

/** A frame a video showed: its media time (s) and when it went on screen (performance.now() ms). */
export interface ShownAt {
  mediaTime: number;
  display: number;
}

/**
 * The media time on a video's screen at `at` (ms): the largest (mediaTime - display time) of the
 * frames it showed in the `windowMs` before, carried to `at`. A frame goes on screen at the
 * first refresh on or after its time, so the largest is the one shown on time (every phase of
 * 25 fps against a 60 Hz refresh occurs within 200 ms). Null when it showed none. `frames` in
 * the order shown.
 */
export function onScreenAt(frames: readonly ShownAt[], at: number, windowMs: number): number | null {
  let lead = -Infinity;
  for (const f of frames) {
    if (f.display > at + 0.5) break;
    if (f.display >= at - windowMs) lead = Math.max(lead, f.mediaTime - f.display / 1000);
  }
  return lead === -Infinity ? null : lead + at / 1000;
}
