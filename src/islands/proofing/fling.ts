// Whether a gallery grid is being flung past rather than looked at (issue 42). Rows that come
// into view during a fling show their tiles' colour, and their pictures load once the page
// slows: decoding the pictures of rows that are on screen for a frame or two was what the
// scroll's remaining long tasks waited on. Tiles read it when they mount and, if they waited,
// hear when it settles; the grid itself never re-renders for it.

/** Faster than this (px per ms, about four screens a second) is a fling. */
export const FLING_SPEED = 4;
/** A fling has settled after this long (ms) without a fast frame. */
export const SETTLE_MS = 150;

export interface Fling {
  /** The page moves as fast as a fling now. */
  moving(): boolean;
  /** `fn` runs once, when the current fling settles (at once if there is none). Answers how to stop listening. */
  onSettle(fn: () => void): () => void;
  /** A frame's scroll position (px) at `now` (ms). */
  observe(y: number, now: number): void;
  /** Stops the settle timer (the grid unmounts). */
  dispose(): void;
}

export function createFling(schedule: (fn: () => void, ms: number) => unknown = setTimeout, cancel: (t: unknown) => void = (t) => clearTimeout(t as number)): Fling {
  let moving = false;
  let last: { y: number; t: number } | null = null;
  let timer: unknown = null;
  const waiting = new Set<() => void>();
  const settle = () => {
    timer = null;
    moving = false;
    const fns = [...waiting];
    waiting.clear();
    for (const fn of fns) fn();
  };
  return {
    moving: () => moving,
    onSettle(fn) {
      if (!moving) {
        fn();
        return () => {};
      }
      waiting.add(fn);
      return () => waiting.delete(fn);
    },
    observe(y, now) {
      // A frame is at least 16 ms: two scroll events in one frame are not a faster scroll.
      if (last && Math.abs(y - last.y) > FLING_SPEED * Math.max(now - last.t, 16)) {
        moving = true;
        if (timer != null) cancel(timer);
        timer = schedule(settle, SETTLE_MS);
      }
      last = { y, t: now };
    },
    dispose() {
      if (timer != null) cancel(timer);
      timer = null;
      waiting.clear();
    },
  };
}
