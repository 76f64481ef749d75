// The frame a player stops on (issue 51), one piece for every player: the review players (admin
// dialog, portal, share page, and so a live session's presenter), the compare view and the
// public film player. After play then pause, Chromium's picture and its `currentTime` can be a
// frame apart either way (the compositor shows a frame due at the next screen refresh a little
// early, or a busy decoder leaves the previous one up): in 4 of 12 pauses the picture showed
// frame 117 while the time said 116, so the note's time field, a saved note and a live session's
// shared frame named another frame than the one on screen. The frames a video paints are
// followed (requestVideoFrameCallback's `mediaTime`, the painted frame's own time); on pause,
// once the last one is painted, the player seeks exactly to it, so its time names the picture.
import { useCallback, useRef, type RefObject } from 'react';
import { frameIndex, frameSeekTime } from './frame-grid.ts';

/** The media time of the frame each followed video painted last (null: none since its last seek). */
const painted = new WeakMap<HTMLVideoElement, { mediaTime: number | null }>();
/** Where a settling seek was sent, until its `seeked` has been handled. */
const settling = new WeakMap<HTMLVideoElement, number>();

/** Follows the frames `video` paints (where the browser reports them); answers a function that stops. */
export function followPaint(video: HTMLVideoElement): () => void {
  if (typeof video.requestVideoFrameCallback !== 'function') return () => undefined;
  const state = { mediaTime: null as number | null };
  painted.set(video, state);
  let handle = 0;
  const onFrame: VideoFrameRequestCallback = (_now, meta) => {
    state.mediaTime = meta.mediaTime;
    handle = video.requestVideoFrameCallback(onFrame);
  };
  // A frame painted before a seek says nothing about where the seek lands.
  const onSeeking = () => (state.mediaTime = null);
  handle = video.requestVideoFrameCallback(onFrame);
  video.addEventListener('seeking', onSeeking);
  return () => {
    video.cancelVideoFrameCallback(handle);
    video.removeEventListener('seeking', onSeeking);
    if (painted.get(video) === state) painted.delete(video);
  };
}

/**
 * Runs `fn` once the frames of the current screen refresh are painted and reported: the frame a
 * pause leaves up can be reported a refresh after the `pause` event. Two animation frames, or
 * 250 ms where animation frames do not run (a hidden tab).
 */
function afterPaint(fn: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    fn();
  };
  const timer = setTimeout(run, 250);
  requestAnimationFrame(() => requestAnimationFrame(run));
}

/**
 * The media time of the picture a just-paused video shows: its painted frame's, or its
 * `currentTime` where the browser does not report frames. Null when it plays again, seeks or
 * ends meanwhile (whatever moved it decides what it shows).
 */
export function pausedPicture(video: HTMLVideoElement): Promise<number | null> {
  const at = video.currentTime;
  return new Promise((resolve) =>
    afterPaint(() => {
      if (!video.paused || video.seeking || video.ended || video.currentTime !== at) return resolve(null);
      resolve(painted.get(video)?.mediaTime ?? at);
    }),
  );
}

/**
 * Where to seek so a paused video's time names the picture at `picture` (media time): that
 * frame's start at the version's rate (as the frame steps seek), or the picture's own time and a
 * tenth of a millisecond when the rate is unknown. Null when the video is there already.
 */
export function settleTime(picture: number, current: number, fps: number | null | undefined): number | null {
  const to = fps ? frameSeekTime(frameIndex(picture * 1000, fps), fps) : picture + 0.0001;
  return Math.abs(to - current) < 0.00005 ? null : to;
}

/**
 * Whether the seek `video` just finished was a pause settling on its picture (not the viewer's).
 * Chromium answers the time it was sent to in whole microseconds (4.5201 s reads 4.520099).
 */
export function settlingSeek(video: HTMLVideoElement): boolean {
  const to = settling.get(video);
  return to !== undefined && Math.abs(video.currentTime - to) < 2e-6;
}

/** Follows what `video` paints and, on each pause after playing, seeks to the frame painted. */
export function settlePauses(video: HTMLVideoElement, fps: () => number | null | undefined): () => void {
  const stopFollowing = followPaint(video);
  const onPause = () => {
    // Paused and sent elsewhere at once (a note's jump, a follower put on the presenter's frame): that decides.
    if (video.seeking || video.ended) return;
    void pausedPicture(video).then((picture) => {
      if (picture === null) return;
      const to = settleTime(picture, video.currentTime, fps());
      if (to === null) return;
      settling.set(video, to);
      video.currentTime = to;
    });
  };
  // Handled by every listener of the same `seeked` first (settlingSeek), then forgotten.
  const onSeeked = () => setTimeout(() => settling.delete(video), 0);
  video.addEventListener('pause', onPause);
  video.addEventListener('seeked', onSeeked);
  return () => {
    stopFollowing();
    video.removeEventListener('pause', onPause);
    video.removeEventListener('seeked', onSeeked);
  };
}

/**
 * A player's <video> ref that settles its pauses: sets `videoRef` as a plain ref would and runs
 * settlePauses while the element is mounted (a new element, after a version switch, gets its own).
 */
export function useSettledPauses(videoRef: RefObject<HTMLVideoElement | null>, fps: number | null | undefined) {
  const rate = useRef(fps);
  rate.current = fps;
  return useCallback(
    (el: HTMLVideoElement | null) => {
      videoRef.current = el;
      if (!el) return;
      const stop = settlePauses(el, () => rate.current);
      return () => {
        stop();
        if (videoRef.current === el) videoRef.current = null;
      };
    },
    [videoRef],
  );
}
