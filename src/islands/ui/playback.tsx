// Video playback shared by every player (public, admin, portal): which file to play (the
// item's playbackUrl, or a chosen rendition: Auto picks by the picture's size on screen and
// Save-Data, auto-size.ts), the quality menu, thumbnail previews over the seek bar (sprite +
// WebVTT map), and the "Preparing preview... 42%" state with Retry for staff while the proxy
// is being made. The review players' transport is ReviewTransport.tsx.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { RotateCw } from 'lucide-react';
import type { Playback, Rendition } from '../../shared/schemas/media.ts';
import { apiGet, apiJson, apiRequest } from '../../shared/api.ts';
import type { Level } from 'hls.js/light';
import { levelOf, streamMode, type StreamMode } from './stream-mode.ts';
import { autoSize, capLevel, type Size } from './auto-size.ts';
import type { attachStream } from './stream.ts';

/** The streaming code and hls.js: only for a review player that streams. */
import { useLiveConnected, useLiveReload } from '../live/useLive.ts';
const loadStream = () => import('./stream.ts');
type Stream = Awaited<ReturnType<typeof attachStream>>;

export type PlayableItem = Pick<Playback, 'playbackUrl' | 'renditions' | 'spriteUrl' | 'processingStatus' | 'processingProgress'> & {
  processingError?: string | null;
  /** The master playlist (review answers carry it; public ones do not). */
  streamUrl?: string | null;
};

export const AUTO = 'auto';

function saveData(): boolean {
  const c = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  return !!c?.saveData;
}

/**
 * The source for a <video>, following the quality choice. Switching keeps the position and the
 * playing state. With `stream` (the review players), a video with several sizes and a master
 * playlist streams it (stream.ts): the hook then sets the element's source itself, so the
 * element must not get a `src` prop (`streams` says so); public players keep the `src` prop.
 */
export function useQuality(item: PlayableItem, video: RefObject<HTMLVideoElement | null>, opts: { stream?: boolean } = {}) {
  const [quality, setQualityState] = useState<string>(AUTO);
  const [autoPick, setAutoPick] = useState<Rendition | null>(null);
  useEffect(() => {
    const el = video.current;
    const measure = () => {
      const box: Size | null = el ? { width: el.clientWidth, height: el.clientHeight } : null;
      const next = autoSize(item.renditions, box, window.devicePixelRatio || 1, saveData());
      // A resize within the same size keeps the same object, so nothing downstream re-runs.
      setAutoPick((cur) => (cur && next && cur.url === next.url ? cur : next));
    };
    measure();
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [item.renditions, video]);
  const chosen = quality === AUTO ? autoPick : (item.renditions.find((r) => r.label === quality) ?? null);
  // Opened while the proxy was still being made, on the playable original: keep playing that
  // when the proxy turns ready (a source swap would jump back to 0 under the viewer) until a
  // quality is chosen from the menu.
  const original = useRef(item.processingStatus !== 'ready' ? item.playbackUrl : null);
  const progressiveSrc = (quality === AUTO ? original.current : null) ?? chosen?.url ?? item.playbackUrl;
  const resume = useRef<{ time: number; playing: boolean } | null>(null);
  const remember = useCallback(() => {
    const v = video.current;
    if (v && v.readyState > 0) resume.current = { time: v.currentTime, playing: !v.paused };
  }, [video]);

  // Streaming (review players only): decided once mounted, as it depends on the browser.
  // null until mounted (the server and the first render know nothing of the browser), so the
  // element is not first given a file only to swap it for the stream a moment later.
  const [decided, setMode] = useState<StreamMode | null>(opts.stream ? null : 'progressive');
  const mode = decided ?? 'progressive';
  const [failed, setFailed] = useState(false);
  // A pinned size the stream does not carry (a plain copy of the source): played as a file.
  const [outside, setOutside] = useState<string | null>(null);
  const [level, setLevel] = useState<number | null>(null);
  useEffect(() => {
    if (opts.stream) setMode(streamMode(video.current));
  }, [opts.stream, video]);
  const streamUrl = opts.stream && !failed && item.processingStatus === 'ready' && item.renditions.length > 1 ? (item.streamUrl ?? null) : null;
  const streaming = !!streamUrl && mode !== 'progressive' && original.current == null && (quality === AUTO || (mode === 'hls' && outside !== quality));
  const src = streaming ? streamUrl : progressiveSrc;

  const handle = useRef<Stream | null>(null);
  // Auto's cap while streaming: the level of the size a file would have been picked at.
  const cap = useRef<(levels: Level[]) => number>(() => -1);
  cap.current = (levels) => capLevel(levels, autoPick);
  const pick = useRef<(levels: Level[]) => number>(() => -1);
  pick.current = (levels) => {
    if (quality === AUTO) return -1;
    const at = levelOf(levels, chosen);
    if (at < 0) {
      remember();
      setOutside(quality);
    }
    return at;
  };
  useEffect(() => {
    const v = video.current;
    if (!opts.stream || !v || !decided) return;
    if (streaming && mode === 'hls') {
      let gone = false;
      void loadStream()
        .then(({ attachStream }) =>
          attachStream(v, streamUrl!, {
            level: (levels) => pick.current(levels),
            cap: (levels) => cap.current(levels),
            onLevel: setLevel,
            onFatal: () => {
              remember();
              setFailed(true);
            },
          }),
        )
        .then(
          (h) => (gone ? h.detach() : (handle.current = h)),
          () => setFailed(true),
        );
      return () => {
        gone = true;
        handle.current?.detach();
        handle.current = null;
        setLevel(null);
      };
    }
    if (src && v.getAttribute('src') !== src) v.src = src;
  }, [opts.stream, decided, streaming, mode, streamUrl, src, video, remember]);
  // A quality chosen, or the player resized, while streaming: the level or Auto's cap changes
  // in place, no new source.
  useEffect(() => {
    handle.current?.refresh();
  }, [quality, autoPick]);

  const setQuality = useCallback(
    (q: string) => {
      remember();
      original.current = null;
      setQualityState(q);
    },
    [remember],
  );
  // After the source changed: back to where the viewer was.
  const onLoadedMetadata = useCallback(() => {
    const v = video.current;
    const r = resume.current;
    if (!v || !r) return;
    resume.current = null;
    v.currentTime = r.time;
    if (r.playing) void v.play().catch(() => {});
  }, [video]);
  return {
    src,
    quality,
    setQuality,
    onLoadedMetadata,
    options: item.renditions.map((r) => r.label),
    /** How it plays now: 'hls' (hls.js), 'native' (the browser's HLS) or 'progressive' (one file). */
    via: streaming ? mode : ('progressive' as StreamMode),
    /** The short side of the size the stream plays now (hls.js), for the menu's "Auto (720p)". */
    level,
    /** The hook sets the element's source (opts.stream): the element gets no `src` prop. */
    streams: !!opts.stream,
  };
}

export function QualityMenu({
  value,
  options,
  onChange,
  className = '',
  playing = null,
}: {
  value: string;
  options: string[];
  onChange: (q: string) => void;
  className?: string;
  /** Streaming on Auto: the size playing now, shown as "Auto (720p)". */
  playing?: number | null;
}) {
  if (options.length < 1) return null;
  return (
    <label className={`inline-flex items-center gap-1 text-xs ${className}`}>
      <span className="sr-only">Quality</span>
      <select
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-label="Quality"
        data-testid="quality-menu"
        className="rounded-md border border-white/20 bg-black/60 px-2 py-1 text-xs text-white focus-visible:outline-2 focus-visible:outline-accent"
      >
        <option value={AUTO}>{playing ? `Auto (${playing}p)` : 'Auto'}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

export interface SpriteCue {
  start: number;
  end: number;
  url: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

function seconds(t: string): number {
  const parts = t.split(':').map(Number);
  return parts.reduce((acc, p) => acc * 60 + p, 0);
}

export function parseSpriteVtt(text: string, base: string): SpriteCue[] {
  const cues: SpriteCue[] = [];
  const re = /([\d:.]+)\s+-->\s+([\d:.]+)\s*\n([^\s#]+)#xywh=(\d+),(\d+),(\d+),(\d+)/g;
  for (const m of text.matchAll(re)) {
    cues.push({ start: seconds(m[1]!), end: seconds(m[2]!), url: new URL(m[3]!, base).href, x: +m[4]!, y: +m[5]!, w: +m[6]!, h: +m[7]! });
  }
  return cues;
}

/** The sprite's time map, fetched once per URL. */
export function useSprite(spriteUrl: string | null): SpriteCue[] {
  const [cues, setCues] = useState<SpriteCue[]>([]);
  useEffect(() => {
    if (!spriteUrl) return setCues([]);
    let live = true;
    const url = new URL(spriteUrl, location.href).href;
    apiRequest('GET', url)
      .then((r) => r.text())
      .then((t) => live && setCues(parseSpriteVtt(t, url)))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [spriteUrl]);
  return cues;
}

/** A position as m:ss, for the players' clocks. */
export function clock(t: number): string {
  if (!Number.isFinite(t) || t < 0) t = 0;
  return `${Math.floor(t / 60)}:${String(Math.floor(t % 60)).padStart(2, '0')}`;
}

/** The frame preview shown above a seek bar while the pointer is over it. */
export function useSeekPreview(cues: SpriteCue[], duration: number) {
  const [hover, setHover] = useState<{ time: number; x: number } | null>(null);
  const bind = {
    onPointerMove: (e: React.PointerEvent<HTMLElement>) => {
      const rect = e.currentTarget.getBoundingClientRect();
      const f = Math.min(1, Math.max(0, (e.clientX - rect.left) / rect.width));
      setHover({ time: f * (duration || 0), x: e.clientX - rect.left });
    },
    onPointerLeave: () => setHover(null),
  };
  const cue = hover ? (cues.find((c) => hover.time >= c.start && hover.time < c.end) ?? cues[cues.length - 1]) : undefined;
  const preview =
    hover && cue && duration > 0 ? (
      <div
        data-testid="seek-preview"
        aria-hidden="true"
        className="pointer-events-none absolute bottom-full z-10 mb-2 -translate-x-1/2 overflow-hidden rounded border border-white/30 bg-black text-center text-[11px] text-white shadow-lg"
        style={{ left: hover.x }}
      >
        <div style={{ width: cue.w, height: cue.h, backgroundImage: `url("${cue.url}")`, backgroundPosition: `-${cue.x}px -${cue.y}px` }} />
        <div className="px-1 py-0.5 tabular-nums">{clock(hover.time)}</div>
      </div>
    ) : null;
  return { bind, preview };
}

/**
 * Follows the item's live processing state while it is not ready (progress ticks are not in the
 * cached lists): asked again on each `processing` event of the item over the tab's stream
 * (issue 41), or every `everyMs` while no stream is open. Calls `onChange` with each new state;
 * stops once ready or failed.
 */
export function useProcessingPoll<T extends PlayableItem>(item: T, pollUrl: string | null, onChange: (next: T) => void, everyMs = 2000) {
  const active = item.processingStatus === 'queued' || item.processingStatus === 'processing';
  const latest = useRef(item);
  latest.current = item;
  const mediaId = Number(/\/media\/(\d+)\/processing/.exec(pollUrl ?? '')?.[1] ?? NaN);
  const connected = useLiveConnected();
  useLiveReload(['processing', 'preview'], () => void tickRef.current?.(), (_t, data) => data.mediaId === mediaId, active && !!pollUrl);
  const tickRef = useRef<(() => Promise<void>) | null>(null);
  useEffect(() => {
    if (!active || !pollUrl) return;
    let stop = false;
    const tick = async () => {
      const next = await apiGet<Playback>(pollUrl, { on401: 'null' }).catch(() => null);
      if (stop || !next) return;
      const cur = latest.current;
      if (next.processingStatus !== cur.processingStatus || next.processingProgress !== cur.processingProgress || next.playbackUrl !== cur.playbackUrl) {
        onChange({ ...cur, ...next });
      }
    };
    tickRef.current = tick;
    const t = connected ? null : setInterval(tick, everyMs);
    void tick();
    return () => {
      stop = true;
      tickRef.current = null;
      if (t) clearInterval(t);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, pollUrl, everyMs, connected]);
}

/** Shown instead of a player while no playable file exists yet, or when conversion failed. */
export function PreparingPreview({
  item,
  onRetry,
  className = '',
  compact = false,
}: {
  item: PlayableItem;
  /** Staff only: queue the conversion again. */
  onRetry?: () => void;
  className?: string;
  compact?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  if (item.processingStatus === 'failed') {
    return (
      <div role="status" data-testid="processing-failed" className={`flex flex-col items-center justify-center gap-2 bg-black p-3 text-center text-white ${className}`}>
        <p className={compact ? 'text-xs' : 'text-sm font-medium'}>Preview could not be prepared</p>
        {item.processingError && !compact && <p className="max-w-prose break-words text-xs text-white/70">{item.processingError}</p>}
        {onRetry && (
          <button
            type="button"
            disabled={busy}
            onClick={(e) => {
              e.stopPropagation();
              setBusy(true);
              onRetry();
            }}
            className="inline-flex items-center gap-1 rounded-md bg-white/15 px-3 py-1.5 text-xs font-medium hover:bg-white/25 focus-visible:outline-2 focus-visible:outline-accent disabled:opacity-60"
          >
            <RotateCw size={14} aria-hidden="true" /> Retry
          </button>
        )}
      </div>
    );
  }
  const pct = item.processingProgress ?? 0;
  return (
    <div role="status" data-testid="processing-state" className={`flex flex-col items-center justify-center gap-2 bg-black p-3 text-white ${className}`}>
      <p className={compact ? 'text-xs' : 'text-sm'}>Preparing preview... {pct}%</p>
      <div className="h-1.5 w-2/3 max-w-xs overflow-hidden rounded-full bg-white/20" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label="Preparing preview">
        <div className="h-full rounded-full bg-accent transition-[width] duration-500" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}

/** POST /api/media/{id}/reprocess; resolves to the item's new state. */
export async function retryProcessing(id: number): Promise<Playback | null> {
  return apiJson<Playback>('POST', `/api/media/${id}/reprocess`);
}
