/**
 * Starts a video as its player opens (the public film dialog). Browsers may refuse autoplay
 * (000 §2): that is expected, so it is logged rather than raised, and `onBlocked` puts the
 * player back to its paused state.
 */
export function tryAutoplay(video: HTMLVideoElement, onPlaying: () => void, onBlocked: () => void): void {
  video.play().then(onPlaying, (err: unknown) => {
    console.log('Autoplay was blocked:', err instanceof Error ? err.name : err);
    onBlocked();
  });
}
