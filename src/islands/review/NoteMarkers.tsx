// Markers on the seek bar for every note of the version shown (issue 29): open notes in gold,
// resolved ones in green, a range note (endMs) as a bar; hover or focus shows the author and
// the first line, a click pauses on the note's frame. One button per note, absolutely placed
// (no per-marker layout work), one tooltip for the strip, and a roving tab stop so 500 markers
// are one stop for the keyboard (arrow keys move between them). Where a note can be written, a
// drag on the strip's empty area marks the note's in and out points (`onRange`); the seek bar
// above keeps its own click and drag for seeking.
import { memo, useId, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type MouseEvent, type PointerEvent } from 'react';
import { formatFrameTime, fpsOf } from './frames.ts';

export interface MarkerNote {
  key: string;
  ms: number;
  endMs: number | null;
  resolved: boolean;
  author: string;
  text: string;
}

const firstLine = (text: string) => {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
};

const clamp01 = (f: number) => (f < 0 ? 0 : f > 1 ? 1 : f);

/** Below this many pixels a press on the strip is a click (a slip of the hand), not a range. */
const DRAG_PX = 4;

/**
 * A place on the strip as a time on a frame's start: dragged ends land on whole frames, as
 * the I and O keys do after frame steps, and never past the end of the video.
 */
function frameAt(f: number, duration: number, fps: number | null | undefined): number {
  const rate = fpsOf(fps);
  const ms = Math.round((Math.round(clamp01(f) * duration * rate) * 1000) / rate);
  return Math.min(ms, Math.floor(duration * 1000));
}

// The visible mark is the button's ::before (a bar for a range, a tick for a point), not a child
// element: 500 notes are then 500 elements to build and style, not 1,000.
const MARK = "before:absolute before:rounded-sm before:content-[''] hover:before:brightness-125";
const POINT = 'before:top-1 before:left-1/2 before:h-4 before:w-1 before:-translate-x-1/2 -translate-x-1/2';
const RANGE = 'before:inset-x-0 before:top-2 before:h-2';
const COLOUR = { open: 'before:bg-gold-400', resolved: 'before:bg-emerald-400' } as const;

const Markers = memo(function Markers({ notes, duration, fps, tabIndexAt }: { notes: MarkerNote[]; duration: number; fps: number | null | undefined; tabIndexAt: number }) {
  return (
    <>
      {notes.map((n, i) => {
        const left = clamp01(n.ms / 1000 / duration) * 100;
        const width = n.endMs != null && n.endMs > n.ms ? clamp01(n.endMs / 1000 / duration) * 100 - left : 0;
        const state = n.resolved ? 'resolved' : 'open';
        return (
          <button
            key={n.key}
            type="button"
            data-i={i}
            data-testid="note-marker"
            data-ms={n.ms}
            data-state={state}
            tabIndex={i === tabIndexAt ? 0 : -1}
            aria-label={`Note at ${formatFrameTime(n.ms, fps)}${width ? ` to ${formatFrameTime(n.endMs!, fps)}` : ''} by ${n.author}${n.resolved ? ' (resolved)' : ''}: ${firstLine(n.text)}`}
            className={`absolute top-0 h-6 min-w-4 cursor-pointer focus-visible:outline-2 focus-visible:outline-white ${MARK} ${width ? RANGE : POINT} ${COLOUR[state]}`}
            style={width ? { left: `${left}%`, width: `${width}%` } : { left: `${left}%` }}
          />
        );
      })}
    </>
  );
});

/**
 * The strip of markers; place it under a seek bar of the same width. With `onRange` it is shown
 * even without notes, since a drag on it is how a first range note can begin.
 */
export function NoteMarkers({
  notes,
  duration,
  fps,
  onSeek,
  onRange,
}: {
  notes: MarkerNote[];
  duration: number;
  fps: number | null | undefined;
  onSeek: (ms: number) => void;
  /** A drag on the empty strip: the range's start and end, in order, on whole frames. */
  onRange?: (fromMs: number, toMs: number) => void;
}) {
  const [active, setActive] = useState<number | null>(null);
  const [stop, setStop] = useState(0);
  // The range being dragged, as shares of the strip's width (null until it is a drag).
  const [dragged, setDragged] = useState<{ from: number; to: number } | null>(null);
  // The press that may become a drag: its pointer and where it began, in pixels and as a share.
  const press = useRef<{ id: number; x: number; from: number } | null>(null);
  const descId = useId();
  const sorted = useMemo(() => [...notes].sort((a, b) => a.ms - b.ms), [notes]);
  if (!(duration > 0) || (sorted.length === 0 && !onRange)) return null;
  const tabIndexAt = Math.min(stop, sorted.length - 1);
  const indexOf = (e: { target: EventTarget | null }) => {
    const i = e.target instanceof HTMLElement ? e.target.closest<HTMLElement>('[data-i]')?.dataset.i : undefined;
    return i === undefined ? null : Number(i);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = indexOf(e);
    if (i === null) return;
    const next = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? i + 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? sorted.length - 1 : null;
    if (next === null) return;
    e.preventDefault();
    const to = Math.max(0, Math.min(sorted.length - 1, next));
    e.currentTarget.querySelector<HTMLElement>(`[data-i="${to}"]`)?.focus();
  };
  const shareAt = (e: PointerEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return rect.width > 0 ? clamp01((e.clientX - rect.left) / rect.width) : 0;
  };
  const endDrag = () => {
    press.current = null;
    setDragged(null);
  };
  const dragEvents = onRange
    ? {
        onPointerDown: (e: PointerEvent<HTMLDivElement>) => {
          // Markers stay buttons; only the strip's empty area starts a range.
          if (!e.isPrimary || e.button !== 0 || indexOf(e) !== null) return;
          // Captured, so the drag goes on over markers and past the strip's ends.
          e.currentTarget.setPointerCapture(e.pointerId);
          press.current = { id: e.pointerId, x: e.clientX, from: shareAt(e) };
          setActive(null);
        },
        onPointerMove: (e: PointerEvent<HTMLDivElement>) => {
          const p = press.current;
          if (!p || p.id !== e.pointerId) return;
          if (!dragged && Math.abs(e.clientX - p.x) < DRAG_PX) return;
          setDragged({ from: p.from, to: shareAt(e) });
        },
        onPointerUp: (e: PointerEvent<HTMLDivElement>) => {
          const p = press.current;
          if (!p || p.id !== e.pointerId) return;
          const moved = dragged !== null || Math.abs(e.clientX - p.x) >= DRAG_PX;
          const to = shareAt(e);
          endDrag();
          if (!moved) return;
          const a = frameAt(Math.min(p.from, to), duration, fps);
          const b = frameAt(Math.max(p.from, to), duration, fps);
          if (b > a) onRange(a, b);
        },
        // A touch taken over by scrolling, or capture lost some other way: no range.
        onPointerCancel: endDrag,
        onLostPointerCapture: () => {
          if (press.current) endDrag();
        },
      }
    : {};
  const shown = dragged ? undefined : active !== null ? sorted[active] : undefined;
  const tipLeft = shown ? clamp01(shown.ms / 1000 / duration) * 100 : 0;
  const span = dragged ? { from: Math.min(dragged.from, dragged.to), to: Math.max(dragged.from, dragged.to) } : null;
  return (
    <div
      role="group"
      aria-label={sorted.length ? `Note markers (${sorted.length}); arrow keys move between them` : 'Note markers (none yet)'}
      aria-describedby={onRange ? descId : undefined}
      data-testid="note-markers"
      data-dragging={dragged ? 'true' : undefined}
      // pan-y: a sideways touch drag is a range here, an upright one still scrolls the page.
      className={`relative mt-1 h-6 w-full ${onRange ? 'cursor-crosshair touch-pan-y select-none' : ''}`}
      onKeyDown={onKeyDown}
      {...dragEvents}
      onClick={(e: MouseEvent<HTMLDivElement>) => {
        const i = indexOf(e);
        if (i !== null) onSeek(sorted[i]!.ms);
      }}
      onMouseOver={(e) => setActive(indexOf(e))}
      onMouseLeave={() => setActive(null)}
      onFocus={(e: FocusEvent<HTMLDivElement>) => {
        const i = indexOf(e);
        setActive(i);
        if (i !== null) setStop(i);
      }}
      onBlur={() => setActive(null)}
    >
      {onRange && (
        <span id={descId} className="sr-only">
          Drag here to mark a range; I and O set in and out.
        </span>
      )}
      {span && (
        <div
          aria-hidden="true"
          data-testid="drag-range"
          className="pointer-events-none absolute top-0 h-6 rounded-sm border-x-2 border-white bg-white/30"
          style={{ left: `${span.from * 100}%`, width: `${(span.to - span.from) * 100}%` }}
        >
          <span className="absolute top-full left-0 z-20 mt-1 whitespace-nowrap rounded border border-white/30 bg-black px-2 py-1 font-mono text-xs tabular-nums text-white shadow-lg">
            {`${formatFrameTime(frameAt(span.from, duration, fps), fps)}–${formatFrameTime(frameAt(span.to, duration, fps), fps)}`}
          </span>
        </div>
      )}
      <Markers notes={sorted} duration={duration} fps={fps} tabIndexAt={tabIndexAt} />
      {shown && (
        <div
          role="tooltip"
          data-testid="marker-tooltip"
          className="pointer-events-none absolute top-full z-20 mt-1 max-w-64 -translate-x-1/2 rounded border border-white/30 bg-black px-2 py-1 text-xs text-white shadow-lg"
          style={{ left: `clamp(4rem, ${tipLeft}%, calc(100% - 4rem))` }}
        >
          <span className="font-mono tabular-nums">{formatFrameTime(shown.ms, fps)}</span> <span className="font-semibold">{shown.author}</span>
          {shown.resolved && <span> (resolved)</span>}
          <span className="block truncate">{firstLine(shown.text)}</span>
        </div>
      )}
    </div>
  );
}
