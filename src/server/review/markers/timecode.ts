// Frame and timecode arithmetic for the marker writers (issue 30): the probed frame rate as an
// exact fraction (23.976 is 24000/1001), note times in milliseconds to frame numbers, SMPTE
// labels both ways with drop-frame counting for 29.97 and 59.94, and FCPXML rational seconds.

/** A frame rate as an exact fraction, its nominal (label) rate, and whether labels drop frames. */
export interface Rate {
  /** Frames per second = num / den. */
  num: number;
  den: number;
  /** Frames counted per labelled second: 24 for 23.976, 30 for 29.97. */
  nominal: number;
  /** Drop-frame labels (29.97 and 59.94): ';' before the frames. */
  drop: boolean;
  /** NTSC family (x/1.001): Premiere's `<ntsc>TRUE</ntsc>`. */
  ntsc: boolean;
}

/** The rate used when ffprobe found none (the review players' default). */
export const DEFAULT_FPS = 25;

/** The probed rate (a float such as 23.976023976) as an exact fraction; `null` → 25. */
export function rateOf(fps: number | null | undefined): Rate {
  const f = typeof fps === 'number' && Number.isFinite(fps) && fps > 0 ? fps : DEFAULT_FPS;
  for (const n of [24, 30, 48, 60, 120]) {
    if (Math.abs(f - (n * 1000) / 1001) < 0.01) return { num: n * 1000, den: 1001, nominal: n, drop: n === 30 || n === 60, ntsc: true };
  }
  const whole = Math.round(f);
  if (Math.abs(f - whole) < 0.01) return { num: whole, den: 1, nominal: whole, drop: false, ntsc: false };
  // An odd rate (12.5, 14.985…): thousandths, labels counted at the rounded rate.
  const num = Math.round(f * 1000);
  const g = gcd(num, 1000);
  return { num: num / g, den: 1000 / g, nominal: Math.max(1, whole), drop: false, ntsc: false };
}

export function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a || 1;
}

/**
 * The frame showing at `ms` milliseconds from the first frame. Stored times are whole
 * milliseconds, so a frame picked by frame-stepping (417.08 ms for frame 10 at 23.976) may be
 * stored just before its frame's start (417 ms): half a millisecond of tolerance puts it back.
 */
export function frameAt(ms: number, rate: Rate): number {
  return Math.max(0, Math.floor(((2 * ms + 1) * rate.num) / (2000 * rate.den)));
}

const dropPerMinute = (rate: Rate) => (rate.nominal === 60 ? 4 : 2);

/** Frames from 00:00:00:00 to a label such as `01:00:00;00`; `null` for none or unreadable. */
export function labelToFrames(label: string | null | undefined, rate: Rate): number | null {
  const m = label ? /^(\d{1,2})[:;.](\d{2})[:;.](\d{2})[:;.](\d{2,3})$/.exec(label.trim()) : null;
  if (!m) return null;
  const [h, mi, s, f] = m.slice(1).map(Number) as [number, number, number, number];
  let frames = ((h * 60 + mi) * 60 + s) * rate.nominal + f;
  if (rate.drop) {
    const minutes = h * 60 + mi;
    frames -= dropPerMinute(rate) * (minutes - Math.floor(minutes / 10));
  }
  return frames;
}

/** The SMPTE label of frame `frames` (from 00:00:00:00), hours wrapping at 24. */
export function framesToLabel(frames: number, rate: Rate): string {
  let n = Math.max(0, Math.floor(frames));
  if (rate.drop) {
    // Labels ;00 and ;01 (;00 to ;03 at 59.94) are skipped each minute except every tenth.
    const d = dropPerMinute(rate);
    const per10 = rate.nominal * 600 - d * 9;
    const per1 = rate.nominal * 60 - d;
    const tens = Math.floor(n / per10);
    const rest = n % per10;
    n += d * 9 * tens + (rest > d ? d * Math.floor((rest - d) / per1) : 0);
  }
  const ff = n % rate.nominal;
  const secs = Math.floor(n / rate.nominal);
  const pad = (v: number) => String(v).padStart(2, '0');
  return `${pad(Math.floor(secs / 3600) % 24)}:${pad(Math.floor(secs / 60) % 60)}:${pad(secs % 60)}${rate.drop ? ';' : ':'}${pad(ff)}`;
}

/** One frame's duration as Final Cut writes it in a format's `frameDuration`: `1001/24000s`, `100/2500s`. */
export function frameDuration(rate: Rate): string {
  const [n, d] = frameFraction(rate);
  return `${n}/${d}s`;
}

function frameFraction(rate: Rate): [number, number] {
  if (rate.den === 1) return [100, rate.num * 100];
  return [rate.den, rate.num];
}

/**
 * `frames` frame durations as FCPXML rational seconds over the frame duration's denominator, as
 * Final Cut writes them: `3600s` when whole, else `86486400/24000s` (01:00:00:00 at 23.976), `0s`.
 */
export function rationalSeconds(frames: number, rate: Rate): string {
  const [n, d] = frameFraction(rate);
  const num = frames * n;
  return num % d === 0 ? `${num / d}s` : `${num}/${d}s`;
}
