// Adaptive streaming for the review players (issue 33): the version's HLS master playlist
// (byte ranges of the same proxies that play as single files) through hls.js's light build,
// loaded only when a review player opens a video with more than one size. Auto leaves the
// choice to hls.js (measured bandwidth) under the cap the player gives (the size its picture
// needs, auto-size.ts); a pinned quality fixes the level. Public pages never import this file
// (they keep progressive MP4).
//
// Where it streams: hls.js wherever Media Source Extensions exist (every desktop browser,
// iPadOS, iOS 17.1+ through ManagedMediaSource), because only there can a size be pinned and
// switched without a reload; the browser's own HLS where there is no MSE but it plays HLS
// (older iPhones); else the progressive file, as before. Any fatal stream error falls back to
// the progressive file at the same position.
import type Hls from 'hls.js/light';
import type { Level } from 'hls.js/light';

let loading: Promise<typeof Hls> | null = null;

/**
 * hls.js's light build (no subtitles, no DRM, no alternate audio: we have none), fetched once;
 * in the browser only, so the server bundle holds no import of it (like tus-js-client in
 * resumable.ts; tests/api/lazy-modules.test.ts reads the bundle).
 */
export function loadHls(): Promise<typeof Hls> {
  loading ??= import.meta.env.SSR ? Promise.reject(new Error('hls.js runs in the browser only')) : import('hls.js/light').then((m) => m.default);
  return loading;
}

export interface Attached {
  hls: Hls;
  /** The playlist's sizes, as hls.js ordered them. */
  levels: Level[];
}

export interface AttachOptions {
  /** The level a pinned size maps to, or -1 for Auto; asked again whenever the levels are known. */
  level: (levels: Level[]) => number;
  /** The highest level Auto may play (-1: any); asked with the levels and at every `refresh`. */
  cap: (levels: Level[]) => number;
  onLevel: (height: number) => void;
  onFatal: () => void;
}

/** Attaches a stream to `video`; the answer's `detach` stops it, `refresh` asks `level` and `cap` again. */
export async function attachStream(video: HTMLVideoElement, url: string, o: AttachOptions): Promise<{ detach: () => void; refresh: () => void }> {
  const HlsClass = await loadHls();
  const hls = new HlsClass({
    // The CSP allows no blob: workers, and fragmented MP4 needs no transmuxing anyway.
    enableWorker: false,
    // The player caps Auto itself (`cap`), by the same rule as a played file. hls.js's own cap
    // was lost: it is set as the manifest is parsed, and Auto's `autoLevelCapping = -1` here
    // then lifted it, so a 4K item in an 846×400 player climbed to 2160p (issue 39).
    capLevelToPlayerSize: false,
    // Loading starts once the cap is in place, so not even the first fragment is above it.
    autoStartLoad: false,
    // Auto starts from a guess, not from a test download of the first listed (largest) size:
    // a third of what the browser measures of the link (navigator.connection), else 1 Mbit/s,
    // so a slow link shows its first frame from a small size and climbs as bandwidth is measured.
    startLevel: -1,
    testBandwidth: false,
    abrEwmaDefaultEstimate: startEstimate(),
    // A review player seeks a lot, and Auto should move up soon after a link recovers (what is
    // buffered plays out first): 10 s ahead, not the default 30, and never more than 20 s even
    // when a small size would fit hls.js's byte budget many times over.
    maxBufferLength: 10,
    maxMaxBufferLength: 20,
    backBufferLength: 30,
  });
  const apply = () => {
    if (!hls.levels.length) return;
    // The cap holds for Auto only: a pinned size plays whatever the cap says.
    hls.autoLevelCapping = o.cap(hls.levels);
    const level = o.level(hls.levels);
    // -1: Auto (hls.js picks); a size: switch now, flushing what was buffered at another size.
    if (level < 0) {
      if (hls.manualLevel !== -1) hls.currentLevel = -1;
    } else if (level !== hls.manualLevel) hls.currentLevel = level;
  };
  hls.on(HlsClass.Events.MANIFEST_PARSED, () => {
    apply();
    hls.startLoad(-1);
  });
  hls.on(HlsClass.Events.LEVEL_SWITCHED, (_e, data) => {
    const l = hls.levels[data.level];
    if (l) o.onLevel(Math.min(l.width, l.height));
  });
  hls.on(HlsClass.Events.ERROR, (_e, data) => {
    if (!data.fatal) return;
    hls.destroy();
    o.onFatal();
  });
  hls.loadSource(url);
  hls.attachMedia(video);
  return {
    detach: () => hls.destroy(),
    refresh: apply,
  };
}

/** Bits per second to start from (see attachStream). */
export function startEstimate(): number {
  const c = (navigator as Navigator & { connection?: { downlink?: number } }).connection;
  const mbps = c?.downlink;
  return mbps && Number.isFinite(mbps) && mbps > 0 ? Math.round((mbps * 1_000_000) / 3) : 1_000_000;
}
