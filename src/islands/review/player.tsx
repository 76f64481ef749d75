// The review players' shared behaviour (issues 29 and 30), used by the admin detail dialog, the
// portal item dialog and the share page alike: the editor keys wherever focus is in the player
// area, the note's time field that follows the playhead (pause, and every seek or frame step
// while paused; a note started while playing keeps the moment its writing began), in and out
// points with a loop, and the jump to a note's exact frame.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject, type SyntheticEvent } from 'react';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { Switch } from '../ui/Switch.tsx';
import { Button } from '../ui/Button.tsx';
import { fpsOf, formatFrameTime, frameIndex, frameSeekTime, frameTimecode, parseSecondsText, secondsText } from './frames.ts';
import { KEY_LIST, SPEEDS, nextShuttle, playerKeyAction, speedLabel } from './keys.ts';
import { settlingSeek } from '../ui/paused-frame.ts';

/** Dispatched by the player area when J's backwards shuttle starts (detail: its speed) or stops (null). */
export const SHUTTLE_EVENT = 'studio-shuttle';

/** Keys typed into these are text, not player commands. */
function typesText(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['range', 'button', 'checkbox', 'radio', 'submit', 'reset'].includes(target.type);
  return false;
}

/** Space presses a focused button or link; it plays or pauses only on the player itself. */
function spaceIsPlayer(target: EventTarget | null, area: HTMLElement): boolean {
  return target === area || target instanceof HTMLVideoElement || (target instanceof HTMLInputElement && target.type === 'range');
}

const clampTime = (video: HTMLVideoElement, t: number) => Math.min(Number.isFinite(video.duration) ? video.duration : Infinity, Math.max(0, t));

/**
 * One frame back or forward, while paused (the review products' `,` and `.`): to the next
 * frame's own start, counted from the frame shown, so steps never add up a rounding error.
 */
function stepFrame(video: HTMLVideoElement, fps: number | null | undefined, direction: 1 | -1): void {
  video.currentTime = clampTime(video, frameSeekTime(frameIndex(video.currentTime * 1000, fps) + direction, fps));
}

const kbd = 'rounded border border-line px-1 font-mono text-fg';

/**
 * The player and what belongs to it (seek bar, markers, quality): one focusable group, so the
 * editor keys (issue 30: J K L, Space, `,` `.`, Shift+arrows, I O, ?) work with focus anywhere
 * in it, not only on the video element, and never while typing in a field. Under it the speed
 * menu, the keys button and, while a range loops, the loop's state. `clock` (the note form's)
 * receives the in and out points and says what to loop.
 */
export function PlayerArea({
  videoRef,
  fps,
  label,
  children,
  clock,
  className = '',
}: {
  videoRef: RefObject<HTMLVideoElement | null>;
  fps: number | null | undefined;
  label: string;
  children: ReactNode;
  clock?: NoteClock;
  className?: string;
}) {
  const area = useRef<HTMLDivElement>(null);
  const [help, setHelp] = useState(false);
  const [rate, setRate] = useState(1);
  // The J shuttle's speed while going backwards (null otherwise): browsers cannot play in
  // reverse, so the player stays paused and a timer steps it back at that pace.
  const [reverse, setReverse] = useState<number | null>(null);
  const speedId = useId();

  // Media events do not bubble, but they do pass the area in the capture phase, whichever
  // <video> the children render (a quality or version switch renders a new one).
  useEffect(() => {
    const el = area.current;
    if (!el) return;
    const onRate = (e: Event) => e.target instanceof HTMLVideoElement && setRate(e.target.playbackRate);
    const onPlay = () => setReverse(null);
    el.addEventListener('ratechange', onRate, true);
    el.addEventListener('play', onPlay, true);
    return () => {
      el.removeEventListener('ratechange', onRate, true);
      el.removeEventListener('play', onPlay, true);
    };
  }, []);

  // A live session's presenter (issue 41) sends the backwards shuttle as one state, not as the
  // many seeks it makes: the area says when it starts and stops.
  useEffect(() => {
    area.current?.dispatchEvent(new CustomEvent(SHUTTLE_EVENT, { bubbles: true, detail: reverse }));
  }, [reverse]);

  useEffect(() => {
    const v = videoRef.current;
    if (reverse === null || !v) return;
    let last = performance.now();
    const timer = setInterval(() => {
      // A step waits for the previous one to be shown; the time meanwhile is still counted, so
      // the pace holds on a slow decoder (bigger steps rather than a slower shuttle).
      if (v.seeking) return;
      const now = performance.now();
      const to = clampTime(v, v.currentTime - ((now - last) / 1000) * reverse);
      last = now;
      v.currentTime = to;
      if (to <= 0) setReverse(null);
    }, 1000 / fpsOf(fps));
    return () => clearInterval(timer);
  }, [reverse, fps, videoRef]);

  const loop = clock?.loop ?? null;
  useEffect(() => {
    const v = videoRef.current;
    if (!loop || !v) return;
    const from = loop.fromMs / 1000;
    const to = loop.toMs / 1000;
    // Checked every animation frame (timeupdate comes only every 250 ms or so), so the loop
    // turns at most a frame or two after the out point.
    let raf = 0;
    const tick = () => {
      if (!v.paused && v.currentTime >= to) v.currentTime = from;
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    const onEnded = () => {
      v.currentTime = from;
      void v.play().catch(() => undefined);
    };
    v.addEventListener('ended', onEnded);
    return () => {
      cancelAnimationFrame(raf);
      v.removeEventListener('ended', onEnded);
    };
  }, [loop?.fromMs, loop?.toMs, videoRef]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (typesText(e.target)) return;
    const action = playerKeyAction(e);
    const v = videoRef.current;
    if (!action) return;
    if (action === 'help') {
      e.preventDefault();
      setHelp(true);
      return;
    }
    if (!v) return;
    if (action === 'toggle' && !spaceIsPlayer(e.target, e.currentTarget)) return;
    if ((action === 'mark-in' || action === 'mark-out') && !clock) return;
    if ((action === 'prev-frame' || action === 'next-frame') && !v.paused) return;
    e.preventDefault();
    const moving = reverse !== null ? 'back' : v.paused ? null : 'forward';
    switch (action) {
      case 'shuttle-forward':
        setReverse(null);
        v.playbackRate = nextShuttle('forward', moving, v.playbackRate);
        void v.play().catch(() => undefined);
        break;
      case 'shuttle-back':
        v.pause();
        setReverse(nextShuttle('back', moving, reverse ?? 1));
        break;
      case 'pause':
        setReverse(null);
        v.pause();
        break;
      case 'toggle':
        if (moving) {
          setReverse(null);
          v.pause();
        } else void v.play().catch(() => undefined);
        break;
      case 'back-second':
      case 'forward-second':
        v.currentTime = clampTime(v, v.currentTime + (action === 'back-second' ? -1 : 1));
        break;
      case 'prev-frame':
      case 'next-frame':
        setReverse(null);
        stepFrame(v, fps, action === 'next-frame' ? 1 : -1);
        break;
      case 'mark-in':
        clock!.markIn();
        break;
      case 'mark-out':
        clock!.markOut();
        break;
    }
  };

  const setSpeed = (next: number) => {
    const v = videoRef.current;
    if (!v) return;
    // The default too, so a quality switch (a new source) keeps the chosen speed.
    v.defaultPlaybackRate = next;
    v.playbackRate = next;
  };
  const speeds: number[] = SPEEDS.includes(rate as (typeof SPEEDS)[number]) ? [...SPEEDS] : [...SPEEDS, rate].sort((a, b) => a - b);

  return (
    <>
      <div
        ref={area}
        role="group"
        aria-label={label}
        tabIndex={0}
        data-testid="player-area"
        // The transport's fullscreen takes the whole area (picture, drawings, markers, keys).
        data-player-area=""
        onKeyDown={onKeyDown}
        className={`rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent [&:fullscreen]:flex [&:fullscreen]:flex-col [&:fullscreen]:bg-black [&:fullscreen]:p-4 ${className}`}
      >
        {children}
        <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-fg-muted">
          <label htmlFor={speedId} className="flex items-center gap-1.5">
            Speed
            <select
              id={speedId}
              value={String(rate)}
              onChange={(e) => setSpeed(Number(e.target.value))}
              data-testid="speed-menu"
              className="h-7 rounded border border-line bg-raised px-1 text-xs text-fg focus-visible:outline-2 focus-visible:outline-accent"
            >
              {speeds.map((s) => (
                <option key={s} value={String(s)}>
                  {speedLabel(s)}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            onClick={() => setHelp(true)}
            aria-keyshortcuts="Shift+?"
            className="rounded px-1 py-0.5 underline-offset-2 hover:text-fg hover:underline focus-visible:outline-2 focus-visible:outline-accent"
          >
            Keyboard shortcuts <kbd className={kbd}>?</kbd>
          </button>
          <span aria-live="polite" data-testid="shuttle-state">
            {reverse !== null ? `Playing backwards ${speedLabel(reverse)}` : ''}
          </span>
          {loop && (
            <span className="flex items-center gap-1.5" data-testid="loop-state">
              {`Looping ${formatFrameTime(loop.fromMs, fps)}–${formatFrameTime(loop.toMs, fps)}`}
              <button type="button" onClick={() => clock?.stopLoop()} className="rounded px-1 py-0.5 text-fg underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-accent">
                Stop loop
              </button>
            </span>
          )}
        </div>
      </div>
      {/* Outside the area, so keys pressed in the dialog are not player keys. */}
      <KeysDialog open={help} onClose={() => setHelp(false)} />
    </>
  );
}

/** Every player key (the `?` key or the Keyboard shortcuts button). */
function KeysDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Keyboard shortcuts" description="With focus on the player (click it or Tab to it); never while typing in a field." size="sm">
      <table className="w-full text-sm" data-testid="keys-list">
        <caption className="sr-only">Player keys</caption>
        <thead>
          <tr className="text-left text-xs text-fg-muted">
            <th scope="col" className="pb-2 font-medium">
              Key or gesture
            </th>
            <th scope="col" className="pb-2 font-medium">
              Does
            </th>
          </tr>
        </thead>
        <tbody>
          {KEY_LIST.map((k) => (
            <tr key={k.action} className="border-t border-line">
              <td className={`py-1.5 pr-4 ${k.gesture ? '' : 'whitespace-nowrap'}`}>
                {k.gesture}
                {k.keys.map((key, i) => (
                  <span key={key}>
                    {i > 0 && ' + '}
                    <kbd className={kbd}>{key}</kbd>
                  </span>
                ))}
              </td>
              <td className="py-1.5">{k.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}

/**
 * Pauses on a note's frame (the frame shown at `timestampMs` at the version's rate; without a
 * rate, at the time itself).
 */
export function seekToNote(video: HTMLVideoElement | null, ms: number, fps?: number | null): void {
  if (!video) return;
  video.pause();
  const end = Number.isFinite(video.duration) ? video.duration : Infinity;
  video.currentTime = Math.min(end, fps ? frameSeekTime(frameIndex(ms, fps), fps) : Math.max(0, ms / 1000));
  video.focus();
}

/**
 * A drag on the marker strip (issue 29): the in and out points go through the clock's own
 * `markIn` and `markOut`, so the form, its range and the loop treat it as I then O. The
 * player then pauses on the in point, as a marker click does, so the range's first frame is
 * the one on screen. Marked before the pause and seek, which would otherwise move the start.
 */
export function markDraggedRange(clock: NoteClock, video: HTMLVideoElement | null, fromMs: number, toMs: number): void {
  clock.markIn(fromMs);
  clock.markOut(toMs);
  seekToNote(video, fromMs);
}

/** A stretch of the video to play over and over. */
export interface LoopRange {
  fromMs: number;
  toMs: number;
}

/**
 * The note's time field, following the playhead: the text (seconds, to the millisecond) taken
 * on pause and on every seek or frame step while paused. A note begun while the video plays
 * (the note box focused or a key pressed in it) keeps that moment: a pause later does not move
 * it (a seek does). Leaving the box empty, or `release` after sending, lets go of it. A time
 * typed by hand is kept when writing begins, and replaced by the next pause or seek.
 *
 * In and out points (issue 29, `I` and `O` at the playhead, or a drag on the marker strip
 * with the times it gives): marking either pins the start, so seeking to the out point does
 * not move the in point; `endMs` is the out point. Clearing them, or sending the note, lets
 * the field follow the playhead again. The loop is either the form's range
 * (while it is valid) or a range note's from the list.
 */
export function useNoteClock(video: RefObject<HTMLVideoElement | null>, initial = '0') {
  const [text, setTextState] = useState(initial);
  const [endMs, setEndMs] = useState<number | null>(null);
  const [pinnedState, setPinnedState] = useState(false);
  const [loopSource, setLoopSource] = useState<'range' | LoopRange | null>(null);
  // Taken when writing began during playback: a pause does not move it (a seek does).
  const held = useRef(false);
  // Typed by hand: starting to write does not replace it (a pause or seek still does).
  const typed = useRef(false);
  // Marked with I or O: neither a pause nor a seek moves the start.
  const pinned = useRef(false);
  const pin = (on: boolean) => {
    pinned.current = on;
    setPinnedState(on);
  };
  const takeAt = (seconds: number) => {
    typed.current = false;
    setTextState(secondsText(seconds));
  };
  const take = (v: HTMLVideoElement) => takeAt(v.currentTime);
  const playheadMs = () => (video.current ? video.current.currentTime * 1000 : null);
  /** Nothing holds the field: it stands for the playhead. */
  const following = () => !held.current && !typed.current && !pinned.current;
  const capture = () => {
    const v = video.current;
    if (!v || !following()) return;
    // Paused: the element's time is the paused frame's even while its pause or seek event is
    // still on its way (a busy machine), so the field is brought up to date; playing: held.
    take(v);
    if (!v.paused && !v.ended) held.current = true;
  };
  const ms = parseSecondsText(text);
  const loop: LoopRange | null = loopSource === 'range' ? (endMs !== null && ms !== null && endMs > ms ? { fromMs: ms, toMs: endMs } : null) : loopSource;
  const clearRange = () => {
    pin(false);
    setEndMs(null);
    setLoopSource((cur) => (cur === 'range' ? null : cur));
  };
  return {
    text,
    ms,
    /** The out point (null for a note at one moment). */
    endMs,
    /** An in or out point is marked. */
    marked: pinnedState || endMs !== null,
    /** The form's range loops. */
    loopsRange: loopSource === 'range',
    /** What the player loops now, if anything. */
    loop,
    /**
     * The time to save the note with, read when it is sent: while the field follows a paused
     * playhead, the element's own time (the frame on screen), not the text, which a late pause
     * or seek event may not have updated yet (issue 39: 20 s saved for a pause at 30 s under
     * load); otherwise the field's moment (writing began while playing, typed, or marked).
     */
    msToSave: (): number | null => {
      const v = video.current;
      if (v && v.paused && following()) return Math.round(v.currentTime * 1000);
      return ms;
    },
    /** Typed by hand. */
    setText: (t: string) => {
      held.current = false;
      typed.current = true;
      setTextState(t);
    },
    /** `I`: the note starts at the playhead (or at `atMs`, where a drag on the marker strip began). */
    markIn: (atMs?: number) => {
      const at = atMs ?? playheadMs();
      if (at === null) return;
      held.current = false;
      pin(true);
      takeAt(at / 1000);
    },
    /** `O`: the note ends at the playhead (or at `atMs`); its start stays where it is. */
    markOut: (atMs?: number) => {
      const at = atMs ?? playheadMs();
      if (at === null) return;
      held.current = false;
      pin(true);
      setEndMs(Math.round(at));
    },
    clearRange,
    /** The "Loop range" switch. */
    setLoopRange: (on: boolean) => setLoopSource(on ? 'range' : null),
    /** Loops a range note from a list, from its start (again: stops). */
    toggleLoop: (range: LoopRange) => {
      const same = loop !== null && loopSource !== 'range' && loop.fromMs === range.fromMs && loop.toMs === range.toMs;
      setLoopSource(same ? null : range);
      const v = video.current;
      if (same || !v) return;
      v.currentTime = range.fromMs / 1000;
      void v.play().catch(() => undefined);
    },
    stopLoop: () => setLoopSource(null),
    /** For the <video>. */
    videoEvents: {
      onPause: (e: SyntheticEvent<HTMLVideoElement>) => {
        if (held.current || pinned.current) return;
        take(e.currentTarget);
      },
      onSeeked: (e: SyntheticEvent<HTMLVideoElement>) => {
        if (!e.currentTarget.paused || pinned.current) return;
        // A pause settling on the frame painted (paused-frame.ts) is still the pause: it moves
        // what a pause moves, not a moment held since writing began.
        if (settlingSeek(e.currentTarget)) {
          if (!held.current) take(e.currentTarget);
          return;
        }
        held.current = false;
        take(e.currentTarget);
      },
    },
    /** For the note's text box: the moment the viewer started writing (brought up to date when paused). */
    draftEvents: {
      onFocus: capture,
      onKeyDown: capture,
      onBlur: (e: React.FocusEvent<HTMLTextAreaElement>) => {
        if (e.currentTarget.value.trim() === '') held.current = false;
      },
    },
    /** After the note was sent. */
    release: () => {
      held.current = false;
      typed.current = false;
      clearRange();
    },
  };
}

export type NoteClock = ReturnType<typeof useNoteClock>;

/**
 * Why the form's range cannot be sent (undefined when it can, or when there is none): the out
 * point must come after the in point and not beyond the video's last second (the server's rule).
 */
export function rangeError(clock: Pick<NoteClock, 'ms' | 'endMs'>, durationSeconds: number | null | undefined): string | undefined {
  if (clock.endMs === null || clock.ms === null) return undefined;
  if (clock.endMs <= clock.ms) return 'Out must be after In: mark the out point later than the in point, or clear it';
  if (durationSeconds != null && Math.floor(clock.endMs / 1000) > durationSeconds) return 'Out must not be beyond the end of the video';
  return undefined;
}

/** The body field of a note's end: sent only for a range. */
export const noteEndBody = (clock: Pick<NoteClock, 'endMs'>) => (clock.endMs !== null ? { endMs: clock.endMs } : {});

/**
 * The range under the time field: In and Out (marked with the buttons or `I` / `O` on the
 * player), Clear, and the "Loop range" switch.
 */
export function NoteRangeField({ clock, fps, error }: { clock: NoteClock; fps: number | null | undefined; error?: string }) {
  return (
    <div role="group" aria-label="Range" className="space-y-2" data-testid="note-range">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="whitespace-nowrap text-fg-muted" data-testid="range-text" aria-live="polite">
          {'In '}
          <span className="font-mono tabular-nums text-fg">{clock.ms !== null ? formatFrameTime(clock.ms, fps) : '–'}</span>
          {' – Out '}
          <span className="font-mono tabular-nums text-fg">{clock.endMs !== null ? formatFrameTime(clock.endMs, fps) : 'not set'}</span>
        </span>
        <Button variant="outline" size="sm" onClick={() => clock.markIn()} aria-keyshortcuts="I">
          Mark in <kbd className={kbd}>I</kbd>
        </Button>
        <Button variant="outline" size="sm" onClick={() => clock.markOut()} aria-keyshortcuts="O">
          Mark out <kbd className={kbd}>O</kbd>
        </Button>
        {clock.marked && (
          <Button variant="ghost" size="sm" onClick={clock.clearRange}>
            Clear range
          </Button>
        )}
      </div>
      {error && (
        <p role="alert" className="text-sm text-danger" data-testid="range-error">
          {error}
        </p>
      )}
      {clock.endMs !== null && <Switch label="Loop range" description="Play from In to Out over and over" checked={clock.loopsRange} disabled={!!error} onChange={clock.setLoopRange} />}
    </div>
  );
}

/** For a range note in a list: loop it (pressed while it loops). */
export function LoopNoteButton({ clock, fromMs, toMs, fps }: { clock: NoteClock; fromMs: number; toMs: number; fps: number | null | undefined }) {
  const on = clock.loop !== null && !clock.loopsRange && clock.loop.fromMs === fromMs && clock.loop.toMs === toMs;
  return (
    <Button
      variant="outline"
      size="sm"
      aria-pressed={on}
      aria-label={`Loop ${formatFrameTime(fromMs, fps)} to ${formatFrameTime(toMs, fps)}`}
      onClick={() => clock.toggleLoop({ fromMs, toMs })}
      data-testid="loop-note"
    >
      {on ? 'Looping' : 'Loop'}
    </Button>
  );
}

/**
 * A note's moment in the three review forms: the time field that follows the playhead and, below
 * it, the in and out points of a range. Videos only (a note on an image is at 0).
 */
export function NoteMomentFields({
  label,
  clock,
  fps,
  startTimecode = null,
  timeError,
  rangeError,
  inputProps,
}: {
  label: string;
  clock: NoteClock;
  fps: number | null | undefined;
  startTimecode?: string | null;
  timeError?: string;
  rangeError?: string;
  inputProps?: Omit<React.InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>;
}) {
  return (
    <>
      <NoteTimeField
        label={label}
        text={clock.text}
        onText={clock.setText}
        fps={fps}
        startTimecode={startTimecode}
        error={timeError}
        hint="Pause, seek or step frames (, and .) to fill this in."
        inputProps={inputProps}
      />
      <NoteRangeField clock={clock} fps={fps} error={rangeError} />
    </>
  );
}

/** The time field with the time as mm:ss.ff (frames at the version's rate) and its SMPTE timecode. */
export function NoteTimeField({
  label,
  text,
  onText,
  fps,
  startTimecode = null,
  error,
  hint,
  inputProps,
}: {
  label: string;
  text: string;
  onText: (t: string) => void;
  fps: number | null | undefined;
  startTimecode?: string | null;
  error?: string;
  hint?: ReactNode;
  inputProps?: Omit<React.InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>;
}) {
  const ms = error ? 0 : (parseSecondsText(text) ?? 0);
  const smpte = frameTimecode(ms, fps, startTimecode);
  return (
    <div className="grid gap-2 sm:grid-cols-[minmax(7rem,1fr)_auto] sm:items-end">
      <Field label={label} inputMode="decimal" value={text} onChange={(e) => onText(e.target.value)} error={error} hint={hint} {...inputProps} />
      <p className="whitespace-nowrap pb-2 text-sm text-fg-muted" aria-live="polite">
        Time:{' '}
        <span data-testid="formatted-time" className="font-mono tabular-nums text-fg">
          {formatFrameTime(ms, fps)}
        </span>
        {smpte && (
          <>
            {' · '}
            <span className="sr-only">timecode </span>
            <span data-testid="formatted-smpte" className="font-mono tabular-nums text-fg">
              {smpte}
            </span>
          </>
        )}
      </p>
    </div>
  );
}
