// Compare versions (issue 30), opened from the version switcher of the admin media dialog and
// the portal item dialog, or straight from `?compare=2,3`: two versions side by side or as a
// wipe (one picture over the other, cut by a divider), one transport for both videos, the
// sound from one side, and an offset in whole frames per side for a cut that moved. Images
// compare the same way, without the transport. The arithmetic is in compare-sync.ts.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { Minus, Pause, Play, Plus } from 'lucide-react';
import type { MediaVersion } from '../../shared/schemas/review.ts';
import type { PlayerCaption } from '../../shared/schemas/captions.ts';
import { Button } from '../ui/Button.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Select } from '../ui/Select.tsx';
import { fpsOf, formatFrameTime } from './frames.ts';
import { followPaint, pausedPicture } from '../ui/paused-frame.ts';
import { clampTime, driftFrames, followerTarget, frameMiddle, HOLD_FRAMES, formatOffset, pickPair, pictureLag, LAG_WINDOW_MS, sideTime, stepFrame, syncAction, timelineOf, wipeFromPointer, wipeKey, type ShownFrame, type Side } from './compare-sync.ts';
import { CaptionTracks, folderOf, useCaptionIndex, useShownCaptions } from '../captions/useCaptions.tsx';
import { CaptionsMenu } from '../captions/CaptionsMenu.tsx';
import { choiceOf } from '../captions/choice.ts';

type Mode = 'side' | 'wipe';
type Which = 'left' | 'right';

interface Props {
  /** The item's title, for the dialog's name. */
  title: string;
  type: 'video' | 'image';
  /** Null while loading. */
  versions: MediaVersion[] | null;
  /** Null: closed. '' opens the default pair; otherwise the `?compare=` text (version numbers). */
  request: string | null;
  onClose: () => void;
  /** Told the pair and mode shown, as they change (a live review's presenter sends them, issue 41). */
  onSelection?: (selection: CompareSelection) => void;
  /** A pair and mode to show, overriding the pickers (a live review's follower). */
  selection?: CompareSelection | null;
}

export interface CompareSelection {
  left: number;
  right: number;
  mode: Mode;
}

/** The compare dialog; opens once the versions are here (a request is checked against them). */
export function CompareDialog({ title, type, versions, request, onClose, onSelection, selection = null }: Props) {
  const open = request !== null && versions !== null;
  const picked = useMemo(() => (open ? pickPair(versions, request) : null), [open, versions, request]);
  return (
    <Dialog open={open} onClose={onClose} title={`Compare versions: ${title}`} size="2xl">
      {picked &&
        ('error' in picked ? (
          <p role="alert" data-testid="compare-error" className="rounded-lg border border-line bg-muted p-4 text-sm">
            {versions?.length === 0 ? 'The versions of this item could not be loaded.' : picked.error}
          </p>
        ) : (
          <CompareView type={type} versions={versions!} initialLeft={picked.left.id} initialRight={picked.right.id} onSelection={onSelection} selection={selection} />
        ))}
    </Dialog>
  );
}

/** Keys typed into these are text (or a choice), not player commands. */
function typesText(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['range', 'button', 'checkbox', 'radio'].includes(target.type);
}

function CompareView({
  type,
  versions,
  initialLeft,
  initialRight,
  onSelection,
  selection,
}: {
  type: 'video' | 'image';
  versions: MediaVersion[];
  initialLeft: number;
  initialRight: number;
  onSelection?: (selection: CompareSelection) => void;
  selection?: CompareSelection | null;
}) {
  const [leftId, setLeftId] = useState(selection?.left ?? initialLeft);
  const [rightId, setRightId] = useState(selection?.right ?? initialRight);
  const [mode, setMode] = useState<Mode>(selection?.mode ?? 'side');
  useEffect(() => {
    if (!selection) return;
    setLeftId(selection.left);
    setRightId(selection.right);
    setMode(selection.mode);
  }, [selection?.left, selection?.right, selection?.mode]);
  useEffect(() => onSelection?.({ left: leftId, right: rightId, mode }), [leftId, rightId, mode]);
  const [wipe, setWipe] = useState(50);
  const left = versions.find((v) => v.id === leftId) ?? versions[0]!;
  const right = versions.find((v) => v.id === rightId) ?? versions[versions.length - 1]!;
  const options = [...versions].reverse().map((v) => ({
    value: String(v.id),
    label: `v${v.number}${v.current ? ' (current)' : ''}`,
  }));
  return (
    <div className="space-y-4" data-testid="compare-view" data-mode={mode}>
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-40">
          <Select label="Left" value={String(left.id)} options={options} onChange={(e) => setLeftId(Number(e.target.value))} />
        </div>
        <div className="w-40">
          <Select label="Right" value={String(right.id)} options={options} onChange={(e) => setRightId(Number(e.target.value))} />
        </div>
        <div role="group" aria-label="Compare mode" className="flex gap-1 rounded-lg bg-muted p-1">
          {(
            [
              ['side', 'Side by side'],
              ['wipe', 'Wipe'],
            ] as const
          ).map(([m, label]) => (
            <button
              key={m}
              type="button"
              aria-pressed={mode === m}
              onClick={() => setMode(m)}
              className={`rounded-md px-3 py-1.5 text-sm font-medium ${mode === m ? 'bg-raised text-fg shadow-sm' : 'text-fg-muted hover:text-fg'}`}
            >
              {label}
            </button>
          ))}
        </div>
      </div>
      {type === 'video' ? (
        // Remounted per pair, so a new pair starts together from the beginning.
        <VideoCompare key={`${left.id}-${right.id}`} left={left} right={right} mode={mode} wipe={wipe} onWipe={setWipe} />
      ) : (
        <Stage mode={mode} wipe={wipe} onWipe={setWipe} left={left} right={right}>
          {(side, className) => {
            const v = side === 'left' ? left : right;
            return <img src={v.webpUrl ?? v.url} alt={`Version ${v.number}`} data-testid={`compare-${side}`} className={className} draggable={false} />;
          }}
        </Stage>
      )}
    </div>
  );
}

/**
 * The pictures: two columns, or the right one over the left one, clipped to the right of the
 * divider. The same two elements in both modes, so switching does not reload the videos.
 */
function Stage({
  mode,
  wipe,
  onWipe,
  left,
  right,
  children,
}: {
  mode: Mode;
  wipe: number;
  onWipe: (v: number) => void;
  left: MediaVersion;
  right: MediaVersion;
  children: (side: Which, className: string) => ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);
  const media = 'block h-[clamp(180px,55vh,600px)] w-full bg-black object-contain';
  const moveTo = (e: PointerEvent<HTMLElement>) => {
    const r = box.current?.getBoundingClientRect();
    if (r) onWipe(wipeFromPointer(e.clientX, r.left, r.width));
  };
  const onKey = (e: KeyboardEvent<HTMLElement>) => {
    const next = wipeKey(wipe, e.key, e.shiftKey);
    if (next === null) return;
    e.preventDefault();
    onWipe(next);
  };
  const wiping = mode === 'wipe';
  const caption = (v: MediaVersion) => (wiping ? null : <p className="mt-1 text-sm font-medium">{`v${v.number}`}</p>);
  return (
    <div
      ref={box}
      data-testid="compare-stage"
      className={wiping ? 'relative touch-none select-none overflow-hidden rounded-lg' : 'grid grid-cols-2 gap-2'}
      {...(wiping
        ? {
            onPointerDown: (e: PointerEvent<HTMLDivElement>) => {
              if (e.button !== 0) return;
              dragging.current = true;
              e.currentTarget.setPointerCapture(e.pointerId);
              moveTo(e);
            },
            onPointerMove: (e: PointerEvent<HTMLDivElement>) => dragging.current && moveTo(e),
            onPointerUp: () => (dragging.current = false),
            onPointerCancel: () => (dragging.current = false),
          }
        : {})}
    >
      <div className="min-w-0">
        {children('left', wiping ? media : `${media} rounded-lg`)}
        {caption(left)}
      </div>
      <div className={wiping ? 'absolute inset-0' : 'min-w-0'} style={wiping ? { clipPath: `inset(0 0 0 ${wipe}%)` } : undefined}>
        {children('right', wiping ? 'block h-full w-full bg-black object-contain' : `${media} rounded-lg`)}
        {caption(right)}
      </div>
      {wiping && (
        <>
          <span className="pointer-events-none absolute top-2 left-2 rounded bg-black/75 px-2 py-0.5 text-xs font-medium text-white">{`v${left.number}`}</span>
          <span className="pointer-events-none absolute top-2 right-2 rounded bg-black/75 px-2 py-0.5 text-xs font-medium text-white">{`v${right.number}`}</span>
          <div
            role="slider"
            tabIndex={0}
            aria-label="Wipe divider"
            aria-orientation="horizontal"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={wipe}
            aria-valuetext={`${Math.round(wipe)}%: v${left.number} on the left, v${right.number} on the right`}
            data-testid="wipe-divider"
            onKeyDown={onKey}
            className="absolute top-0 bottom-0 z-10 w-6 -translate-x-1/2 cursor-ew-resize outline-offset-[-4px]"
            style={{ left: `${wipe}%` }}
          >
            <span aria-hidden="true" className="absolute top-0 bottom-0 left-1/2 w-0.5 -translate-x-1/2 bg-white shadow-[0_0_0_1px_rgba(0,0,0,0.6)]" />
            <span aria-hidden="true" className="absolute top-1/2 left-1/2 h-8 w-4 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-black/60 bg-white" />
          </div>
        </>
      )}
    </div>
  );
}

/** Both videos and their one transport. The seek bar and frame steps count on the left video's time. */
const NO_TRACKS: PlayerCaption[] = [];

function VideoCompare({ left, right, mode, wipe, onWipe }: { left: MediaVersion; right: MediaVersion; mode: Mode; wipe: number; onWipe: (v: number) => void }) {
  const lv = useRef<HTMLVideoElement>(null);
  const rv = useRef<HTMLVideoElement>(null);
  // The left video's painted frames are followed: a pause stays on the one on screen (issue 51).
  const leftEl = useCallback((el: HTMLVideoElement | null) => {
    lv.current = el;
    if (!el) return;
    const stop = followPaint(el);
    return () => {
      stop();
      lv.current = null;
    };
  }, []);
  const [offsets, setOffsets] = useState({ left: 0, right: 0 });
  const [sound, setSound] = useState<Which>('right');
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  /** The leader's time as play was pressed: it has started once its time moved from there. */
  const startedAt = useRef(0);
  const sides = useRef<{ left: Side; right: Side }>({
    left: { offset: 0, fps: left.frameRate },
    right: { offset: 0, fps: right.frameRate },
  });
  sides.current = {
    left: { offset: offsets.left, fps: left.frameRate },
    right: { offset: offsets.right, fps: right.frameRate },
  };
  const fps = fpsOf(left.frameRate);
  // Each side's own captions (issue 54), shown on the side heard only: a wipe lays one over the other.
  const leftCaptions = useCaptionIndex(folderOf(left.playbackUrl));
  const rightCaptions = useCaptionIndex(folderOf(right.playbackUrl));
  useShownCaptions(lv, sound === 'left' ? leftCaptions.tracks : NO_TRACKS);
  useShownCaptions(rv, sound === 'right' ? rightCaptions.tracks : NO_TRACKS);
  const anyCaptions = [...leftCaptions.tracks, ...rightCaptions.tracks].filter((t, i, all) => all.findIndex((o) => choiceOf(o) === choiceOf(t)) === i);

  /** The timeline time: the left video's position less its offset. */
  const timeline = () => timelineOf(lv.current?.currentTime ?? 0, sides.current.left);
  /** Both videos to a timeline time (seek, step, offset change). */
  const place = (t: number) => {
    const l = lv.current;
    const r = rv.current;
    if (!l || !r) return;
    l.currentTime = clampTime(sideTime(t, sides.current.left), l.duration);
    r.currentTime = clampTime(sideTime(t, sides.current.right), r.duration);
    setTime(Math.max(0, t));
  };

  /** The side heard leads; the muted one follows it. */
  const pairOf = (lead: Which) => {
    const follow: Which = lead === 'left' ? 'right' : 'left';
    return { lead, follow, leader: (lead === 'left' ? lv : rv).current, follower: (follow === 'left' ? lv : rv).current };
  };

  // While playing, at every animation frame the follower is brought back when it drifts. Not
  // the leader's requestVideoFrameCallback: the heard side starts later (its sound output opens
  // first), and the muted one would run ahead meanwhile with no frame of the leader to correct
  // it by; an animation frame sees the leader still standing and slows the follower at once.
  useEffect(() => {
    const { lead, follow, leader, follower } = pairOf(sound);
    if (!playing || !leader || !follower) return;
    let stopped = false;
    let handle = 0;
    // The frames each side put on screen since its clock last changed course (a new speed, a
    // seek), from requestVideoFrameCallback where the browser has it, so the pictures are kept
    // together, not only the clocks; each side's lag is kept from its last steady run.
    const shown: Record<'leader' | 'follower', ShownFrame[]> = { leader: [], follower: [] };
    const lag = { leader: 0, follower: 0 };
    // The follower's clock changed course: frames shown before belong to a clock that is gone.
    const restartFollowerFrames = () => {
      shown.follower = [];
    };
    const frameHandles = new Map<HTMLVideoElement, number>();
    for (const [role, video] of [['leader', leader], ['follower', follower]] as const) {
      if (typeof video.requestVideoFrameCallback !== 'function') continue;
      const onFrame: VideoFrameRequestCallback = (_now, meta) => {
        if (stopped) return;
        const list = shown[role];
        // A frame shown while standing (after a seek, before the follower starts) belongs to no
        // running clock; counted, it would pass the wait for a lag.
        if (!video.paused && !video.seeking) list.push({ mediaTime: meta.mediaTime, expectedDisplayTime: meta.expectedDisplayTime });
        while (list.length && list[0]!.expectedDisplayTime < meta.expectedDisplayTime - LAG_WINDOW_MS) list.shift();
        frameHandles.set(video, video.requestVideoFrameCallback(onFrame));
      };
      frameHandles.set(video, video.requestVideoFrameCallback(onFrame));
    }
    const tick = () => {
      if (stopped) return;
      const now = performance.now();
      lag.leader = pictureLag(shown.leader, now, leader.currentTime) ?? lag.leader;
      if (follower.playbackRate === 1) lag.follower = pictureLag(shown.follower, now, follower.currentTime) ?? lag.follower;
      // Where the leader's picture is, and where the follower's clock must be for its picture to be there.
      const target = followerTarget(leader.currentTime - lag.leader, sides.current[lead], sides.current[follow]) + lag.follower;
      // Out of the follower's range (an offset past an end): it waits at its edge.
      if (target >= 0 && target < (Number.isFinite(follower.duration) ? follower.duration : Infinity) && !follower.seeking && !follower.ended) {
        const action = syncAction(follower.currentTime - target, target, sides.current[follow].fps, follower.playbackRate);
        if (action.kind === 'seek') {
          follower.currentTime = action.to;
          restartFollowerFrames();
        }
        const rate = action.kind === 'rate' ? action.rate : 1;
        if (follower.playbackRate !== rate) {
          follower.playbackRate = rate;
          restartFollowerFrames();
        }
        if (follower.paused && !leader.paused && leader.currentTime !== startedAt.current) {
          restartFollowerFrames();
          void follower.play().catch(() => {});
        }
      }
      schedule();
    };
    const schedule = () => {
      handle = requestAnimationFrame(tick);
    };
    schedule();
    return () => {
      stopped = true;
      cancelAnimationFrame(handle);
      for (const [video, h] of frameHandles) video.cancelVideoFrameCallback(h);
      follower.playbackRate = 1;
    };
  }, [playing, sound]);

  // The sound from one side only.
  useEffect(() => {
    if (lv.current) lv.current.muted = sound !== 'left';
    if (rv.current) rv.current.muted = sound !== 'right';
  }, [sound]);

  // Closing the dialog (unmount) stops both.
  useEffect(() => {
    const l = lv.current;
    const r = rv.current;
    return () => {
      l?.pause();
      r?.pause();
    };
  }, []);

  const play = async () => {
    const l = lv.current;
    const r = rv.current;
    if (!l || !r) return;
    if (l.ended) place(0);
    const { lead, follow, leader, follower } = pairOf(sound);
    const target = clampTime(followerTarget(leader!.currentTime, sides.current[lead], sides.current[follow]), follower!.duration);
    // Only when it is off: any seek, even to where it is, stalls the follower as playback starts.
    if (Math.abs(driftFrames(follower!.currentTime, target, sides.current[follow].fps)) > HOLD_FRAMES) follower!.currentTime = target;
    setPlaying(true);
    try {
      // The follower starts once the leader moves (the sync loop below): the heard side starts
      // later (its clock waits for the sound output to open), and a follower started with it
      // would run ahead meanwhile.
      startedAt.current = leader!.currentTime;
      await leader!.play();
    } catch {
      // Refused (or interrupted by a pause): both stay paused, as the button says.
      l.pause();
      r.pause();
      setPlaying(false);
    }
  };
  const pause = () => {
    const l = lv.current;
    l?.pause();
    rv.current?.pause();
    setPlaying(false);
    if (!l) return;
    // Paused, both show exactly the frames the offsets say: from the frame the left one painted
    // as it stopped (the seek bar and the time count on it), in the frame's middle as a step
    // places it. Its time, where it was being moved as it stopped (the sync's correction).
    void pausedPicture(l).then((picture) => {
      if (l.paused) place(timelineOf(frameMiddle(picture ?? l.currentTime, left.frameRate), sides.current.left));
    });
  };
  const step = (dir: 1 | -1) => {
    const l = lv.current;
    if (!l) return;
    if (playing) pause();
    place(timelineOf(stepFrame(l.currentTime, dir, left.frameRate, l.duration), sides.current.left));
  };
  const shift = (side: Which, by: number) => {
    const t = timeline();
    const next = { ...offsets, [side]: offsets[side] + by };
    sides.current = {
      left: { ...sides.current.left, offset: next.left },
      right: { ...sides.current.right, offset: next.right },
    };
    setOffsets(next);
    if (!playing) place(t);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if ((e.key !== ',' && e.key !== '.') || e.ctrlKey || e.metaKey || e.altKey || typesText(e.target)) return;
    e.preventDefault();
    step(e.key === '.' ? 1 : -1);
  };

  const missing = [left, right].filter((v) => !v.playbackUrl);
  if (missing.length) {
    return (
      <p role="status" className="rounded-lg border border-line bg-muted p-4 text-sm" data-testid="compare-error">
        {`${missing.map((v) => `v${v.number}`).join(' and ')} ${missing.length > 1 ? 'are' : 'is'} still being prepared; compare once ${missing.length > 1 ? 'they are' : 'it is'} ready.`}
      </p>
    );
  }
  const offsetControl = (side: Which, v: MediaVersion) => (
    <div role="group" aria-label={`Offset of v${v.number}`} className="flex items-center gap-1">
      <span className="text-sm text-fg-muted">{`v${v.number} offset`}</span>
      <Button variant="outline" size="icon" aria-label={`v${v.number} one frame earlier`} onClick={() => shift(side, -1)}>
        <Minus size={14} aria-hidden="true" />
      </Button>
      <output className="w-20 text-center text-sm tabular-nums" aria-live="polite" data-testid={`offset-${side}`}>
        {formatOffset(offsets[side])}
      </output>
      <Button variant="outline" size="icon" aria-label={`v${v.number} one frame later`} onClick={() => shift(side, 1)}>
        <Plus size={14} aria-hidden="true" />
      </Button>
    </div>
  );
  return (
    <div role="group" aria-label="Compare player" tabIndex={-1} onKeyDown={onKeyDown} className="space-y-3" data-testid="compare-player">
      <Stage mode={mode} wipe={wipe} onWipe={onWipe} left={left} right={right}>
        {(side, className) => {
          const v = side === 'left' ? left : right;
          return (
            <video
              ref={side === 'left' ? leftEl : rv}
              src={v.playbackUrl ?? undefined}
              poster={v.posterUrl ?? undefined}
              preload="auto"
              playsInline
              muted={sound !== side}
              data-testid={`compare-${side}`}
              aria-label={`v${v.number}`}
              className={className}
              {...(side === 'left'
                ? {
                    onTimeUpdate: () => setTime(timeline()),
                    onSeeked: () => setTime(timeline()),
                    onDurationChange: (e: React.SyntheticEvent<HTMLVideoElement>) => setDuration(Number.isFinite(e.currentTarget.duration) ? e.currentTarget.duration : 0),
                    onEnded: () => {
                      rv.current?.pause();
                      setPlaying(false);
                    },
                  }
                : {})}
            >
              <CaptionTracks tracks={side === 'left' ? leftCaptions.tracks : rightCaptions.tracks} />
            </video>
          );
        }}
      </Stage>
      <div className="flex items-center gap-2 rounded-lg bg-black/80 px-2 py-2 text-white sm:gap-3 sm:px-3" data-testid="compare-transport">
        <button type="button" onClick={() => (playing ? pause() : void play())} aria-label={playing ? 'Pause both' : 'Play both'} data-testid="compare-play" className="shrink-0 rounded p-1 hover:bg-white/15">
          {playing ? <Pause size={18} aria-hidden="true" /> : <Play size={18} aria-hidden="true" />}
        </button>
        <input
          type="range"
          aria-label="Seek both"
          data-testid="compare-seek"
          min={0}
          max={duration || 0}
          step={1 / fps}
          value={Math.min(Math.max(0, time), duration || 0)}
          aria-valuetext={`${formatFrameTime(time * 1000, left.frameRate)} of ${formatFrameTime(duration * 1000, left.frameRate)}`}
          onChange={(e) => place(Number(e.target.value))}
          className="h-1 min-w-0 flex-1 cursor-pointer accent-gold-400"
        />
        <span className="shrink-0 text-xs tabular-nums" data-testid="compare-time">
          {formatFrameTime(Math.max(0, time) * 1000, left.frameRate)}
        </span>
        <CaptionsMenu tracks={anyCaptions} className="shrink-0" />
      </div>
      <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
        {offsetControl('left', left)}
        {offsetControl('right', right)}
        <fieldset className="flex items-center gap-3 text-sm">
          <legend className="sr-only">Sound from</legend>
          <span aria-hidden="true" className="text-fg-muted">
            Sound from
          </span>
          {(['left', 'right'] as const).map((side) => (
            <label key={side} className="inline-flex items-center gap-1.5">
              <input type="radio" name="compare-sound" value={side} checked={sound === side} onChange={() => setSound(side)} className="accent-gold-600" />
              {`v${(side === 'left' ? left : right).number}`}
            </label>
          ))}
        </fieldset>
      </div>
      <p className="text-xs text-fg-muted">
        Press <kbd className="rounded border border-line px-1 font-mono">,</kbd> or <kbd className="rounded border border-line px-1 font-mono">.</kbd> to step both one frame.
      </p>
    </div>
  );
}
