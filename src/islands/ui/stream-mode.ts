// How a review player plays a master playlist, decided without loading anything: the public
// players share playback.tsx, and stream.ts (with hls.js behind it) is fetched only when a
// review player actually streams (issue 29's budget: public pages do not grow).
import type { Level } from 'hls.js/light';

export type StreamMode = 'hls' | 'native' | 'progressive';

const HLS_TYPE = 'application/vnd.apple.mpegurl';

export function streamMode(video: HTMLVideoElement | null): StreamMode {
  if (typeof window === 'undefined' || !video) return 'progressive';
  const w = window as Window & { ManagedMediaSource?: unknown };
  if ('MediaSource' in w || w.ManagedMediaSource) return 'hls';
  return video.canPlayType(HLS_TYPE) ? 'native' : 'progressive';
}

/** The level showing `size` (a rendition's width and height), or -1 when the stream has none. */
export function levelOf(levels: Level[], size: { width: number; height: number } | null): number {
  if (!size) return -1;
  return levels.findIndex((l) => l.width === size.width && l.height === size.height);
}
