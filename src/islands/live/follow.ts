// Mirroring a presenter's player (issue 41): what a follower's <video> should show for a
// presenter's state, and how to put it there. Paused, it sits on exactly the presenter's frame:
// a seek to that frame's start plus a tenth of a millisecond (frameSeekTime), as the review
// players' own frame steps do. Playing, it runs from where the presenter was when the state was
// sent plus the time since, at the same speed (backwards too: J, which the browser cannot play,
// is stepped on a timer as the player's own shuttle is).
import type { LiveState } from '../../shared/schemas/live.ts';
import { fpsOf, frameIndex, frameSeekTime } from '../review/frames.ts';

/** Off by more than this while playing, a follower seeks (less is left alone: seeks stall). */
export const DRIFT_SECONDS = 0.25;

/** Where the presenter's playhead is at server time `now` (seconds). */
export function expectedSeconds(state: Pick<LiveState, 'playing' | 'rate' | 'ms' | 'frame' | 'at'>, now: number, fps: number | null | undefined): number {
  if (!state.playing) return frameSeekTime(state.frame, fps);
  return Math.max(0, (state.ms + (now - state.at) * state.rate) / 1000);
}

/** The frame a paused presenter shows, for the player's time `seconds`. */
export const frameAt = (seconds: number, fps: number | null | undefined) => frameIndex(seconds * 1000, fps);

const clamp = (v: HTMLVideoElement, t: number) => Math.min(Number.isFinite(v.duration) ? v.duration : Infinity, Math.max(0, t));

/**
 * Puts the video where the state says. Answers a function to stop what it started (the
 * backwards shuttle's timer), or null.
 */
export function applyState(video: HTMLVideoElement, state: LiveState, fps: number | null | undefined, serverNow: () => number): (() => void) | null {
  if (!state.playing) {
    if (!video.paused) video.pause();
    const target = frameSeekTime(state.frame, fps);
    // Already on that frame's start: a seek would only make the decoder work again.
    if (frameAt(video.currentTime, fps) !== state.frame || Math.abs(video.currentTime - target) > 0.0005) video.currentTime = clamp(video, target);
    return null;
  }
  if (state.rate < 0) {
    if (!video.paused) video.pause();
    const step = () => {
      if (video.seeking) return;
      video.currentTime = clamp(video, expectedSeconds(state, serverNow(), fps));
    };
    step();
    const timer = setInterval(step, 1000 / fpsOf(fps));
    return () => clearInterval(timer);
  }
  const expected = expectedSeconds(state, serverNow(), fps);
  if (Math.abs(video.currentTime - expected) > DRIFT_SECONDS) video.currentTime = clamp(video, expected);
  if (video.playbackRate !== state.rate) video.playbackRate = state.rate;
  if (video.paused) void video.play().catch(() => undefined);
  return null;
}
