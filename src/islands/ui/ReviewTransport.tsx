// The review players' one transport (issue 39): the <video> has no browser controls, so there
// is one clock and one seek bar, and no second keyboard handler (Chromium's controls moved a
// focused video by 1 % of its length on ←/→, on top of the player's own Shift+arrow second).
// Play/Pause, the clock, the seek bar with frame previews and the note markers under it, mute
// and volume, the quality menu and fullscreen (of the whole player area, so the drawings, the
// markers and the keys come along).
import { useEffect, useState, type ReactNode, type RefObject } from 'react';
import { Maximize, Minimize, Pause, Play } from 'lucide-react';
import { AUTO, QualityMenu, clock, useQuality, useSeekPreview, useSprite, type PlayableItem } from './playback.tsx';
import { Tooltip } from './Tooltip.tsx';
import { VolumeControl } from './VolumeControl.tsx';
import { CaptionDownloads, CaptionsMenu } from '../captions/CaptionsMenu.tsx';
import type { CaptionIndex } from '../../shared/schemas/captions.ts';

/** The element that goes fullscreen: PlayerArea marks itself with this attribute. */
export const PLAYER_AREA_ATTR = 'data-player-area';

const TIME_EVENTS = ['timeupdate', 'seeking', 'seeked', 'durationchange', 'loadedmetadata', 'emptied'] as const;
const PLAY_EVENTS = ['play', 'pause', 'ended', 'emptied'] as const;

/** Plays or pauses the element (a refused play() stays paused: the button shows Play). */
export function togglePlay(v: HTMLVideoElement | null): void {
  if (!v) return;
  if (v.paused || v.ended) void v.play().catch(() => undefined);
  else v.pause();
}

const iconBtn = 'inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-full text-white hover:bg-white/15 focus-visible:outline-2 focus-visible:outline-accent';

export function ReviewTransport({
  video,
  item,
  quality,
  captions,
  markers,
}: {
  video: RefObject<HTMLVideoElement | null>;
  item: PlayableItem;
  quality: ReturnType<typeof useQuality>;
  /** The version's caption tracks (issue 54): the CC menu and the files to download. */
  captions?: CaptionIndex;
  /** Drawn under the seek bar, at its width (the review players' note markers). */
  markers?: (duration: number) => ReactNode;
}) {
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const cues = useSprite(item.spriteUrl);
  const { bind, preview } = useSeekPreview(cues, duration);
  useEffect(() => {
    const v = video.current;
    if (!v) return;
    const onTime = () => {
      setTime(v.currentTime);
      setDuration(Number.isFinite(v.duration) ? v.duration : 0);
    };
    const onPlay = () => setPlaying(!v.paused && !v.ended);
    onTime();
    onPlay();
    for (const ev of TIME_EVENTS) v.addEventListener(ev, onTime);
    for (const ev of PLAY_EVENTS) v.addEventListener(ev, onPlay);
    return () => {
      for (const ev of TIME_EVENTS) v.removeEventListener(ev, onTime);
      for (const ev of PLAY_EVENTS) v.removeEventListener(ev, onPlay);
    };
  }, [video]);
  useEffect(() => {
    const on = () => setFullscreen(!!document.fullscreenElement?.hasAttribute(PLAYER_AREA_ATTR));
    document.addEventListener('fullscreenchange', on);
    return () => document.removeEventListener('fullscreenchange', on);
  }, []);
  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void video.current?.closest<HTMLElement>(`[${PLAYER_AREA_ATTR}]`)?.requestFullscreen().catch(() => undefined);
  };
  return (
    // One row where the transport has room (a container of 32rem); on a phone two, the seek bar
    // alone on the first at the full width (issue 53: at 375 px it was 0 px wide and fullscreen
    // was cut off). Container, not screen, widths: the same transport sits in dialogs and pages.
    <div className="@container mt-2 rounded-lg bg-black/80 px-2 py-1.5 text-white" data-testid="review-transport">
      <div className="flex flex-wrap items-center gap-x-1 gap-y-1 @lg:flex-nowrap @lg:gap-2">
        <Tooltip label={playing ? 'Pause' : 'Play'} side="top">
          <button type="button" onClick={() => togglePlay(video.current)} aria-label={playing ? 'Pause' : 'Play'} className={iconBtn} data-testid="review-play">
            {playing ? <Pause size={18} aria-hidden="true" /> : <Play size={18} aria-hidden="true" />}
          </button>
        </Tooltip>
        <span className="shrink-0 text-xs tabular-nums" aria-hidden="true" data-testid="review-clock">
          {clock(time)}
        </span>
        <div className="relative order-first min-w-0 basis-full py-1 @lg:order-none @lg:flex-1 @lg:basis-0 @lg:py-0" {...bind}>
          {preview}
          <input
            type="range"
            aria-label="Seek with preview"
            data-testid="review-seek"
            min={0}
            max={duration || 0}
            step={0.1}
            value={Math.min(time, duration || 0)}
            aria-valuetext={`${clock(time)} of ${clock(duration)}`}
            onChange={(e) => {
              const v = video.current;
              if (v) v.currentTime = Number(e.target.value);
              setTime(Number(e.target.value));
            }}
            className="h-1 w-full cursor-pointer accent-gold-400"
          />
          {markers?.(duration)}
        </div>
        <span className="shrink-0 text-xs tabular-nums" aria-hidden="true">
          <span className="@lg:hidden">/ </span>
          {clock(duration)}
        </span>
        <span className="flex-1 @lg:hidden" aria-hidden="true" />
        {/* The slider only where there is room: phones have their own volume buttons. */}
        <VolumeControl video={video} buttonClass={iconBtn} sliderClass="hidden h-1 w-16 cursor-pointer accent-gold-400 @lg:block" />
        {captions && <CaptionsMenu tracks={captions.tracks} className="shrink-0" />}
        {captions && <CaptionDownloads index={captions} buttonClass={iconBtn} />}
        <QualityMenu value={quality.quality} options={quality.options} onChange={quality.setQuality} playing={quality.quality === AUTO ? quality.level : null} className="shrink-0" />
        <Tooltip label={fullscreen ? 'Exit fullscreen' : 'Fullscreen'} side="top" align="end">
          <button type="button" onClick={toggleFullscreen} aria-label={fullscreen ? 'Exit fullscreen' : 'Fullscreen'} className={iconBtn}>
            {fullscreen ? <Minimize size={16} aria-hidden="true" /> : <Maximize size={16} aria-hidden="true" />}
          </button>
        </Tooltip>
      </div>
    </div>
  );
}
