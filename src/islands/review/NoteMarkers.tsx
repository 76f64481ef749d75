// Markers on the seek bar for every note of the version shown (issue 29): open notes in gold,
// resolved ones in green, a range note (endMs) as a bar; hover or focus shows the author and
// the first line, a click pauses on the note's frame. One button per note, absolutely placed
// (no per-marker layout work), one tooltip for the strip, and a roving tab stop so 500 markers
// are one stop for the keyboard (arrow keys move between them).
import { memo, useMemo, useState, type FocusEvent, type KeyboardEvent, type MouseEvent } from 'react';
import { formatFrameTime } from './frames.ts';

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
            aria-label={`Note at ${formatFrameTime(n.ms, fps)}${n.endMs != null && n.endMs > n.ms ? ` to ${formatFrameTime(n.endMs, fps)}` : ''} by ${n.author}${n.resolved ? ' (resolved)' : ''}: ${firstLine(n.text)}`}
            className={`group absolute top-0 flex h-6 min-w-4 cursor-pointer items-center focus-visible:outline-2 focus-visible:outline-white ${width ? '' : '-translate-x-1/2 justify-center'}`}
            style={width ? { left: `${left}%`, width: `${width}%` } : { left: `${left}%` }}
          >
            <span
              aria-hidden="true"
              className={`block rounded-sm ${width ? 'h-2 w-full' : 'h-4 w-1'} ${n.resolved ? 'bg-emerald-400' : 'bg-gold-400'} group-hover:brightness-125`}
            />
          </button>
        );
      })}
    </>
  );
});

/** The strip of markers; place it under a seek bar of the same width. */
export function NoteMarkers({ notes, duration, fps, onSeek }: { notes: MarkerNote[]; duration: number; fps: number | null | undefined; onSeek: (ms: number) => void }) {
  const [active, setActive] = useState<number | null>(null);
  const [stop, setStop] = useState(0);
  const sorted = useMemo(() => [...notes].sort((a, b) => a.ms - b.ms), [notes]);
  if (!(duration > 0) || sorted.length === 0) return null;
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
  const shown = active !== null ? sorted[active] : undefined;
  const tipLeft = shown ? clamp01(shown.ms / 1000 / duration) * 100 : 0;
  return (
    <div
      role="group"
      aria-label={`Note markers (${sorted.length}); arrow keys move between them`}
      data-testid="note-markers"
      className="relative mt-1 h-6 w-full"
      onKeyDown={onKeyDown}
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
