// Adaptive streaming for the review players (issue 33): the version's HLS master playlist
// (byte ranges of the same proxies that play as single files) through hls.js's light build,
// loaded only when a review player opens a video with more than one size. Auto leaves the
// choice to hls.js (measured bandwidth, capped to the player's size); a pinned quality fixes
// the level. Public pages never import this file (they keep progressive MP4).
//
// Where it streams: hls.js wherever Media Source Extensions exist (every desktop browser,
// iPadOS, iOS 17.1+ through ManagedMediaSource), because only there can a size be pinned and
// switched without a reload; the browser's own HLS where there is no MSE but it plays HLS
// (older iPhones); else the progressive file, as before. Any fatal stream error falls back to
// the progressive file at the same position.
import type Hls from 'hls.js/light';
import type { Level } from 'hls.js/light';

let loading: Promise<typeof Hls> | null = null;

/** hls.js's light build (no subtitles, no DRM, no alternate audio: we have none), fetched once. */
export function loadHls(): Promise<typeof Hls> {
  loading ??= import('hls.js/light').then((m) => m.default);
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
  /** Save-Data: Auto is capped to the smallest size. */
  saveData: boolean;
  onLevel: (height: number) => void;
  /** The playlist is read and the element has its source: it can be played. */
  onReady: () => void;
  onFatal: () => void;
}

/** Attaches a stream to `video`; the answer's `detach` stops it. */
export async function attachStream(video: HTMLVideoElement, url: string, o: AttachOptions): Promise<{ detach: () => void; setLevel: (fromLevels: (levels: Level[]) => number) => void }> {
  const HlsClass = await loadHls();
  const hls = new HlsClass({
    // The CSP allows no blob: workers, and fragmented MP4 needs no transmuxing anyway.
    enableWorker: false,
    capLevelToPlayerSize: true,
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
  const apply = (pick: (levels: Level[]) => number) => {
    if (!hls.levels.length) return;
    const level = pick(hls.levels);
    // -1: Auto (hls.js picks); a size: switch now, flushing what was buffered at another size.
    if (level < 0) {
      hls.currentLevel = -1;
      hls.autoLevelCapping = o.saveData ? smallestLevel(hls.levels) : -1;
    } else {
      hls.autoLevelCapping = -1;
      hls.currentLevel = level;
    }
  };
  hls.on(HlsClass.Events.MANIFEST_PARSED, () => {
    apply(o.level);
    o.onReady();
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
    setLevel: (pick) => apply(pick),
  };
}

/** Bits per second to start from (see attachStream). */
export function startEstimate(): number {
  const c = (navigator as Navigator & { connection?: { downlink?: number } }).connection;
  const mbps = c?.downlink;
  return mbps && Number.isFinite(mbps) && mbps > 0 ? Math.round((mbps * 1_000_000) / 3) : 1_000_000;
}

function smallestLevel(levels: Level[]): number {
  let best = 0;
  levels.forEach((l, i) => {
    if (l.height * l.width < levels[best]!.height * levels[best]!.width) best = i;
  });
  return best;
}
