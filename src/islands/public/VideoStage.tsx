// The film player of the public site (000 §9): play/pause, seek with frame previews, skip
// ±10 s, mute, volume, quality and fullscreen, with Space and the arrow keys. The portfolio's
// dialog and the watch pages (issue 32) both use it, so a film plays the same wherever it is
// opened. Under 768 px, and until the island has hydrated (no JavaScript), the browser's own
// controls are used.
import { useCallback, useEffect, useRef, useState } from 'react';
import { Maximize, Minimize, Pause, Play, RotateCcw, RotateCw } from 'lucide-react';
import type { GridMedia } from '../../shared/public-media.ts';
import { Tooltip } from '../ui/Tooltip.tsx';
import { tryAutoplay } from '../ui/autoplay.ts';
import { useHydrated } from '../ui/hydration.ts';
import { PreparingPreview, QualityMenu, clock, useQuality, useSeekPreview, useSprite } from '../ui/playback.tsx';
import { VOLUME_STEP, VolumeControl } from '../ui/VolumeControl.tsx';
import type { PlayerCaption } from '../../shared/schemas/captions.ts';
import { CaptionTracks, folderOf, useCaptionIndex, useShownCaptions } from '../captions/useCaptions.tsx';
import { CaptionsMenu } from '../captions/CaptionsMenu.tsx';
import { useSettledPauses } from '../ui/paused-frame.ts';

// 000 §9 player constants.
export const SEEK_STEP = 0.1;
export const SKIP_SECONDS = 10;
export { VOLUME_STEP };
export const CONTROLS_HIDE_MS = 3000;
export const MOBILE_QUERY = '(max-width: 767px)';


/** Whether the viewport is under 768 px (false while rendering on the server). */
export function useIsMobile(): boolean {
  const [mobile, setMobile] = useState(() => typeof matchMedia !== 'undefined' && matchMedia(MOBILE_QUERY).matches);
  useEffect(() => {
    const mq = matchMedia(MOBILE_QUERY);
    const on = () => setMobile(mq.matches);
    on();
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return mobile;
}

type Layout = 'dialog' | 'page';
const STAGE_CLASS: Record<Layout, string> = {
  dialog: 'relative bg-black',
  // The watch page: a visible focus ring, as the rest of the page has.
  page: 'relative h-full w-full bg-black focus-visible:outline-2 focus-visible:-outline-offset-4 focus-visible:outline-accent',
};
const VIDEO_CLASS: Record<Layout, string> = {
  dialog: 'aspect-video max-h-[80dvh] w-full bg-black',
  page: 'h-full w-full bg-black',
};

export interface VideoStageProps {
  item: GridMedia & { durationSeconds?: number | null };
  /** The dialog plays as it opens and takes the keyboard; a watch page waits for the viewer. */
  autoplay: boolean;
  layout: Layout;
  /** 'metadata' on a page: the length shows before play without loading the film. */
  preload: 'auto' | 'metadata';
  testId: string;
  /** The film's published captions, when the page knows them (a watch page renders them with the film). */
  captions?: PlayerCaption[];
}

export function VideoStage({ item, autoplay, layout, preload, testId, captions }: VideoStageProps) {
  const stage = useRef<HTMLDivElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const hideTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const mobile = useIsMobile();
  const hydrated = useHydrated();
  const native = mobile || !hydrated;
  const [playing, setPlaying] = useState(false);
  const [current, setCurrent] = useState(0);
  // The stored length, so the controls show it before the metadata arrives.
  const [duration, setDuration] = useState(item.durationSeconds ?? 0);
  const [controlsVisible, setControlsVisible] = useState(true);
  const [fullscreen, setFullscreen] = useState(false);
  const quality = useQuality(item, video);
  // Published captions (issue 54): the page's, else the film folder's index (the portfolio dialog).
  const { tracks } = useCaptionIndex(captions ? null : folderOf(item.playbackUrl), captions);
  useShownCaptions(video, tracks);
  // A pause stays on the frame painted, and the clock's time is that frame's (issue 51; no rate here).
  const videoEl = useSettledPauses(video, null);
  const cues = useSprite(item.spriteUrl);
  const seekPreview = useSeekPreview(cues, duration);

  const revealControls = useCallback(() => {
    setControlsVisible(true);
    clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => setControlsVisible(false), CONTROLS_HIDE_MS);
  }, []);

  useEffect(() => {
    const v = video.current;
    if (v) {
      // Metadata may already be in by the time this runs.
      if (v.readyState >= 1 && Number.isFinite(v.duration)) setDuration(v.duration);
      setPlaying(!v.paused);
    }
    if (autoplay) {
      // Keyboard focus on the video area, so Space and the arrows act on the player.
      stage.current?.focus();
      if (v)
        tryAutoplay(
          v,
          () => setPlaying(true),
          () => setPlaying(false),
        );
    }
    revealControls();
    const onFs = () => setFullscreen(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', onFs);
    return () => {
      clearTimeout(hideTimer.current);
      document.removeEventListener('fullscreenchange', onFs);
    };
  }, [revealControls, autoplay]);

  const toggle = () => {
    const v = video.current;
    if (!v) return;
    if (v.paused) v.play().catch((err: unknown) => console.log('Playback was blocked:', err));
    else v.pause();
  };
  const skip = (delta: number) => {
    const v = video.current;
    if (!v) return;
    v.currentTime = Math.min(Math.max(0, v.currentTime + delta), Number.isFinite(v.duration) ? v.duration : v.currentTime + delta);
    setCurrent(v.currentTime);
  };
  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else void stage.current?.requestFullscreen().catch(() => {});
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (!video.current || native) return;
    const t = e.target as HTMLElement;
    const onRange = t instanceof HTMLInputElement && t.type === 'range';
    if (e.key === ' ' && !(t instanceof HTMLButtonElement)) {
      e.preventDefault();
      toggle();
      revealControls();
    } else if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && !onRange) {
      e.preventDefault();
      skip(e.key === 'ArrowLeft' ? -SKIP_SECONDS : SKIP_SECONDS);
      revealControls();
    }
  };

  const iconBtn = 'inline-flex h-10 w-10 items-center justify-center rounded-full text-white hover:bg-white/15';
  const showControls = controlsVisible || !playing;

  if (!quality.src) return <PreparingPreview item={item} className={layout === 'dialog' ? 'aspect-video w-full' : 'h-full w-full'} />;
  return (
    <div
      ref={stage}
      className={`${STAGE_CLASS[layout]} ${layout === 'dialog' && mobile ? 'flex h-[calc(100dvh-4rem)] items-center' : ''} ${!showControls ? 'cursor-none' : ''}`}
      onMouseMove={native ? undefined : revealControls}
      onKeyDown={onKeyDown}
      tabIndex={layout === 'page' ? 0 : -1}
      role="group"
      aria-label={`Video: ${item.title}. Space plays or pauses, arrow keys skip 10 seconds`}
    >
      <video
        ref={videoEl}
        src={quality.src ?? undefined}
        poster={item.posterUrl ?? undefined}
        playsInline
        preload={preload}
        controls={native}
        className={VIDEO_CLASS[layout]}
        data-testid={testId}
        onClick={native ? undefined : toggle}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onTimeUpdate={(e) => {
          const el = e.currentTarget;
          setCurrent(el.currentTime);
          if (Number.isFinite(el.duration)) setDuration(el.duration);
        }}
        onLoadedMetadata={(e) => {
          if (Number.isFinite(e.currentTarget.duration)) setDuration(e.currentTarget.duration);
          quality.onLoadedMetadata();
        }}
        onDurationChange={(e) => Number.isFinite(e.currentTarget.duration) && setDuration(e.currentTarget.duration)}
      >
        <CaptionTracks tracks={tracks} />
      </video>
      {!native && (
        <div
          data-testid="player-controls"
          data-visible={showControls ? 'true' : 'false'}
          className={`absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/90 to-transparent px-4 pb-3 pt-10 transition-opacity duration-300 ${
            showControls ? 'opacity-100' : 'pointer-events-none opacity-0'
          }`}
          onFocus={revealControls}
        >
          <div className="flex items-center gap-3 text-xs tabular-nums">
            <span aria-hidden="true">{clock(current)}</span>
            <div className="relative flex flex-1 items-center" {...seekPreview.bind}>
            {seekPreview.preview}
            <input
              type="range"
              aria-label="Seek"
              min={0}
              max={duration || 0}
              step={SEEK_STEP}
              value={Math.min(current, duration || 0)}
              aria-valuetext={`${clock(current)} of ${clock(duration)}`}
              onChange={(e) => {
                const v = video.current;
                if (v) v.currentTime = Number(e.target.value);
                setCurrent(Number(e.target.value));
              }}
              className="h-1 w-full cursor-pointer accent-gold-400"
            />
            </div>
            <span aria-hidden="true">{clock(duration)}</span>
          </div>
          <div className="mt-2 flex items-center gap-1">
            <Tooltip label="Back 10 seconds" side="top">
              <button type="button" onClick={() => skip(-SKIP_SECONDS)} aria-label="Back 10 seconds" className={iconBtn}>
                <RotateCcw size={18} aria-hidden="true" />
              </button>
            </Tooltip>
            <Tooltip label={playing ? 'Pause' : 'Play'} side="top">
              <button type="button" onClick={toggle} aria-label={playing ? 'Pause' : 'Play'} className={iconBtn}>
                {playing ? <Pause size={20} aria-hidden="true" /> : <Play size={20} aria-hidden="true" />}
              </button>
            </Tooltip>
            <Tooltip label="Forward 10 seconds" side="top">
              <button type="button" onClick={() => skip(SKIP_SECONDS)} aria-label="Forward 10 seconds" className={iconBtn}>
                <RotateCw size={18} aria-hidden="true" />
              </button>
            </Tooltip>
            <VolumeControl video={video} buttonClass={iconBtn} sliderClass="h-1 w-24 cursor-pointer accent-gold-400" />
            <span className="flex-1" />
            <CaptionsMenu tracks={tracks} />
            <QualityMenu value={quality.quality} options={quality.options} onChange={quality.setQuality} />
            <Tooltip label={fullscreen ? 'Exit fullscreen' : 'Fullscreen'} side="top" align="end">
              <button type="button" onClick={toggleFullscreen} aria-label={fullscreen ? 'Exit fullscreen' : 'Fullscreen'} className={iconBtn}>
                {fullscreen ? <Minimize size={18} aria-hidden="true" /> : <Maximize size={18} aria-hidden="true" />}
              </button>
            </Tooltip>
          </div>
        </div>
      )}
    </div>
  );
}
