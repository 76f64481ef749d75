// Compare versions (issue 30): the pure arithmetic behind the compare view, kept apart from
// React so it can be tested table by table. One timeline drives both sides: each side shows
// the timeline's time plus its own offset in whole frames (a cut that moved). The side whose
// sound is heard leads (its speed is never touched, so the sound never wavers); the muted one
// is kept on the leader's time, corrected before the two drift half a frame apart.
import { fpsOf, frameIndex } from './frames.ts';

/** What picking versions needs of one (MediaVersion has more). */
export interface VersionRef {
  number: number;
  current: boolean;
}

export type PairResult<V> = { left: V; right: V } | { error: string };

/**
 * `?compare=2,3` read as two version numbers. Null when the parameter is absent or empty (the
 * default pair is used); an error naming the parameter when it is not two whole numbers.
 */
export function parseCompareParam(raw: string | null | undefined): [number, number] | { error: string } | null {
  if (raw == null || raw.trim() === '') return null;
  const parts = raw.split(',').map((s) => s.trim().replace(/^v/i, ''));
  const nums = parts.map((s) => (/^\d{1,6}$/.test(s) ? Number(s) : NaN));
  if (nums.length !== 2 || nums.some((n) => !Number.isSafeInteger(n) || n < 1)) {
    return { error: `compare: "${raw}" is not two version numbers (for example ?compare=1,2)` };
  }
  return [nums[0]!, nums[1]!];
}

/**
 * The two versions to compare: the ones asked for by number, else the previous and the current
 * one (what a client asks: "what changed since the last cut?"). A request that cannot be met
 * answers a sentence for the viewer instead of throwing.
 */
export function pickPair<V extends VersionRef>(versions: V[], raw: string | null | undefined): PairResult<V> {
  if (versions.length < 2) return { error: 'This item has only one version, so there is nothing to compare yet.' };
  const asked = parseCompareParam(raw);
  if (asked && 'error' in asked) return asked;
  const byNumber = [...versions].sort((a, b) => a.number - b.number);
  if (asked) {
    const [a, b] = asked;
    if (a === b) return { error: `Pick two different versions to compare (both were v${a}).` };
    const have = byNumber.map((v) => `v${v.number}`).join(', ');
    for (const n of [a, b]) {
      if (!byNumber.some((v) => v.number === n)) return { error: `v${n} is not a version of this item (it has ${have}).` };
    }
    return { left: byNumber.find((v) => v.number === a)!, right: byNumber.find((v) => v.number === b)! };
  }
  const current = byNumber.find((v) => v.current) ?? byNumber[byNumber.length - 1]!;
  const before = byNumber.filter((v) => v.number < current.number);
  // The current version is normally the newest; when it is the oldest, compare with the next.
  const other = before.length ? before[before.length - 1]! : byNumber.find((v) => v !== current)!;
  return other.number < current.number ? { left: other, right: current } : { left: current, right: other };
}

/** "+2 frames", "-1 frame", "0 frames". */
export function formatOffset(frames: number): string {
  const sign = frames > 0 ? '+' : frames < 0 ? '-' : '';
  return `${sign}${Math.abs(frames)} ${Math.abs(frames) === 1 ? 'frame' : 'frames'}`;
}

export interface Side {
  /** Whole frames; positive shows later material on this side. */
  offset: number;
  fps: number | null | undefined;
}

/** Where a side's video should be for a timeline time. */
export function sideTime(timeline: number, side: Side): number {
  return timeline + side.offset / fpsOf(side.fps);
}

/** The timeline time a side's video position stands for. */
export function timelineOf(time: number, side: Side): number {
  return time - side.offset / fpsOf(side.fps);
}

/** Where the following video should be while the leading one is at `leaderTime`. */
export function followerTarget(leaderTime: number, leader: Side, follower: Side): number {
  return sideTime(timelineOf(leaderTime, leader), follower);
}

/** A time kept within a video (its end when the length is unknown is left open). */
export function clampTime(t: number, duration: number | null | undefined): number {
  const end = duration != null && Number.isFinite(duration) && duration > 0 ? duration : Infinity;
  return Math.min(end, Math.max(0, t));
}

/** How far the follower is from where it should be, in its frames (positive: ahead). */
export function driftFrames(followerTime: number, target: number, fps: number | null | undefined): number {
  return (followerTime - target) * fpsOf(fps);
}

/** A frame a video put on screen, as requestVideoFrameCallback reports it. */
export interface ShownFrame {
  /** The frame's media time (seconds). */
  mediaTime: number;
  /** When it is (or was) on screen, in performance.now() time (ms). */
  expectedDisplayTime: number;
}

/** How far back (ms) shown frames count for a side's picture lag. */
export const LAG_WINDOW_MS = 1000;
/** Fewer shown frames than this in the window say nothing (start-up, a stall): null. */
export const LAG_MIN_FRAMES = 5;
/**
 * No frame shown for this long (ms): the video stands (buffering, a starved decoder) and its
 * clock may stand with it, so carrying its last frames forward to now would read as a lag that
 * is not there: null. Three frames at 25 fps and a little more (a decoder that drops every
 * other frame still shows one within it).
 */
export const LAG_STALE_MS = 150;

/**
 * How far a playing video's picture is behind its clock (`clock`: its currentTime at `now`,
 * performance.now() ms), in seconds, from the frames it put on screen lately at normal speed.
 * A frame is shown at the first screen refresh on or after its time, so each frame's media time
 * less its display time is at most the clock's lead over the screen; the largest in a second
 * (every phase of 25 or 30 fps against the refresh occurs in it) is that lead to within a few
 * milliseconds. The sync keeps the pictures together rather than the clocks: with its sound
 * playing, a video's frames reach the screen later for the same clock (the sound output's
 * latency), which left two in-step clocks two thirds of a frame apart on screen
 * (bench/compare.mjs). The frames must all be from one steady run of the clock: the caller
 * starts the list again when the speed changes or the video seeks, since frames shown before
 * that belong to a clock that is gone (counting them fed each correction into the next).
 */
export function pictureLag(frames: readonly ShownFrame[], now: number, clock: number): number | null {
  let lead = -Infinity;
  let n = 0;
  let newest = -Infinity;
  for (const f of frames) {
    if (f.expectedDisplayTime < now - LAG_WINDOW_MS || f.expectedDisplayTime > now + LAG_WINDOW_MS) continue;
    n++;
    lead = Math.max(lead, f.mediaTime - f.expectedDisplayTime / 1000);
    newest = Math.max(newest, f.expectedDisplayTime);
  }
  if (n < LAG_MIN_FRAMES || now - newest > LAG_STALE_MS) return null;
  const lag = clock - (lead + now / 1000);
  // Anything beyond a quarter second is not a steady lag (a stall in the window).
  return Math.abs(lag) > 0.25 ? null : lag;
}

/**
 * Within this (in frames) nothing is done. A quarter, not the half frame the pictures may be
 * apart: the correction starts early enough that the drift never reaches half a frame.
 */
export const HOLD_FRAMES = 0.25;
/** A correction under way ends once the drift is this small (in frames), or changed side. */
export const SETTLE_FRAMES = 0.05;
/** Beyond this (seconds) the follower jumps; below it, it catches up by changing speed. */
export const SEEK_SECONDS = 0.5;
/** The speed change for a drift up to a frame, and beyond (the follower is muted, so only the picture could show it). */
export const SLOW_CHANGE = 0.1;
export const FAST_CHANGE = 0.25;

export type SyncAction = { kind: 'hold' } | { kind: 'rate'; rate: number } | { kind: 'seek'; to: number };

/**
 * What to do with the following video during playback, from its drift (seconds, positive when
 * ahead of `target`) and the speed it plays at now. Beyond half a second: seek. Otherwise it
 * plays 10 % (25 % beyond a frame) slower or faster until the drift is gone, then at normal
 * speed again; a drift under a quarter frame is left alone. The speed takes few distinct values
 * and changes only when the drift crosses those lines: every speed change restarts the video's
 * sound renderer (muted or not), which costs the follower a little time, so a speed set afresh
 * at every frame would make the drift it is meant to remove. A seek during playback stalls the
 * video while it decodes from a keyframe, so it is kept for large drifts.
 */
export function syncAction(drift: number, target: number, fps: number | null | undefined, rate = 1): SyncAction {
  const frame = 1 / fpsOf(fps);
  const size = Math.abs(drift);
  if (size > SEEK_SECONDS) return { kind: 'seek', to: target };
  const correcting = rate !== 1;
  // Correcting: until the drift is (nearly) gone or has changed side.
  if (correcting && (size <= SETTLE_FRAMES * frame || Math.sign(drift) === Math.sign(rate - 1))) return { kind: 'hold' };
  if (!correcting && size <= HOLD_FRAMES * frame) return { kind: 'hold' };
  const change = size > frame ? FAST_CHANGE : SLOW_CHANGE;
  return { kind: 'rate', rate: drift > 0 ? 1 - change : 1 + change };
}

/**
 * One frame back or forward from `time`, placed in the middle of the frame (a time on a frame's
 * edge can show either neighbour once rounded by the decoder), within the video.
 */
export function stepFrame(time: number, direction: 1 | -1, fps: number | null | undefined, duration: number | null | undefined): number {
  const rate = fpsOf(fps);
  const frame = Math.floor(time * rate + 1e-6);
  const last = duration != null && Number.isFinite(duration) && duration > 0 ? Math.max(0, Math.ceil(duration * rate - 1e-6) - 1) : Infinity;
  const next = Math.min(last, Math.max(0, frame + direction));
  return (next + 0.5) / rate;
}

/** The middle of the frame shown at `time`: where a paused compare view stands, as a step places it. */
export function frameMiddle(time: number, fps: number | null | undefined): number {
  return (frameIndex(time * 1000, fps) + 0.5) / fpsOf(fps);
}

/** The wipe divider's position (percent from the left) after a key, or null for other keys. */
export function wipeKey(value: number, key: string, shift = false): number | null {
  const step = shift ? 10 : 1;
  const clamp = (v: number) => Math.min(100, Math.max(0, v));
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(value - step);
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(value + step);
    case 'PageDown':
      return clamp(value - 10);
    case 'PageUp':
      return clamp(value + 10);
    case 'Home':
      return 0;
    case 'End':
      return 100;
    default:
      return null;
  }
}

/** The wipe divider's position under a pointer at `clientX` over a box (percent, to 0.1). */
export function wipeFromPointer(clientX: number, boxLeft: number, boxWidth: number): number {
  if (!(boxWidth > 0)) return 50;
  const f = Math.min(1, Math.max(0, (clientX - boxLeft) / boxWidth));
  return Math.round(f * 1000) / 10;
}
