// The review players' shared behaviour (issue 29), used by the admin detail dialog, the portal
// item dialog and the share page alike: frame stepping with `,` and `.` wherever focus is in
// the player area, the note's time field that follows the playhead (pause, and every seek or
// frame step while paused; a note started while playing keeps the moment its writing began),
// and the jump to a note's exact frame.
import { useRef, useState, type KeyboardEvent, type ReactNode, type RefObject, type SyntheticEvent } from 'react';
import { Field } from '../ui/Field.tsx';
import { fpsOf, formatFrameTime, frameTimecode, parseSecondsText, secondsText } from './frames.ts';

/** Keys typed into these are text, not player commands. */
function typesText(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['range', 'button', 'checkbox', 'radio', 'submit', 'reset'].includes(target.type);
  return false;
}

/** `,` and `.` step one frame back or forward while paused (the review products' keys). */
export function stepFrameKey(e: KeyboardEvent<HTMLElement>, video: HTMLVideoElement | null, fps: number | null | undefined): void {
  if (!video || !video.paused || (e.key !== ',' && e.key !== '.') || e.ctrlKey || e.metaKey || e.altKey || typesText(e.target)) return;
  e.preventDefault();
  const frame = 1 / fpsOf(fps);
  const end = Number.isFinite(video.duration) ? video.duration : Infinity;
  video.currentTime = Math.min(end, Math.max(0, video.currentTime + (e.key === '.' ? frame : -frame)));
}

/**
 * The player and what belongs to it (seek bar, markers, quality): one focusable group, so the
 * frame keys work with focus anywhere in it, not only on the video element.
 */
export function PlayerArea({
  videoRef,
  fps,
  label,
  children,
  className = '',
}: {
  videoRef: RefObject<HTMLVideoElement | null>;
  fps: number | null | undefined;
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div
      role="group"
      aria-label={label}
      tabIndex={0}
      data-testid="player-area"
      onKeyDown={(e) => stepFrameKey(e, videoRef.current, fps)}
      className={`rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent ${className}`}
    >
      {children}
    </div>
  );
}

/** Pauses on a note's exact moment (the frame shown at `timestampMs`). */
export function seekToNote(video: HTMLVideoElement | null, ms: number): void {
  if (!video) return;
  video.pause();
  const end = Number.isFinite(video.duration) ? video.duration : Infinity;
  video.currentTime = Math.min(end, Math.max(0, ms / 1000));
  video.focus();
}

/**
 * The note's time field, following the playhead: the text (seconds, to the millisecond) taken
 * on pause and on every seek or frame step while paused. A note begun while the video plays
 * (the note box focused or a key pressed in it) keeps that moment: a pause later does not move
 * it (a seek does). Leaving the box empty, or `release` after sending, lets go of it. A time
 * typed by hand is kept when writing begins, and replaced by the next pause or seek.
 */
export function useNoteClock(video: RefObject<HTMLVideoElement | null>, initial = '0') {
  const [text, setTextState] = useState(initial);
  // Taken when writing began during playback: a pause does not move it (a seek does).
  const held = useRef(false);
  // Typed by hand: starting to write does not replace it (a pause or seek still does).
  const typed = useRef(false);
  const take = (v: HTMLVideoElement) => {
    typed.current = false;
    setTextState(secondsText(v.currentTime));
  };
  const capture = () => {
    const v = video.current;
    if (!v || v.paused || v.ended || held.current || typed.current) return;
    take(v);
    held.current = true;
  };
  return {
    text,
    ms: parseSecondsText(text),
    /** Typed by hand. */
    setText: (t: string) => {
      held.current = false;
      typed.current = true;
      setTextState(t);
    },
    /** For the <video>. */
    videoEvents: {
      onPause: (e: SyntheticEvent<HTMLVideoElement>) => {
        if (held.current) return;
        take(e.currentTarget);
      },
      onSeeked: (e: SyntheticEvent<HTMLVideoElement>) => {
        if (!e.currentTarget.paused) return;
        held.current = false;
        take(e.currentTarget);
      },
    },
    /** For the note's text box: the moment the viewer started writing. */
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
    },
  };
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
