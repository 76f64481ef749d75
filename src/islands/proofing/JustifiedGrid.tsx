// A virtualised justified grid (issue 42): every image keeps its aspect ratio, rows fill the
// width, and only the rows near the screen are in the DOM (2,000 images scroll as smoothly as
// 20). The page scrolls, not the grid, so keyboard focus moving to a tile off screen scrolls it
// in and renders its row.
import { startTransition, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { justify, rowRange, stepSpan, targetRowHeight, type Row, type Span } from './justify.ts';
import { Skeleton } from '../ui/Skeleton.tsx';
import { createFling, type Fling } from './fling.ts';

/** Rows this far above and below the screen are rendered too (px), so fast scrolling shows no gaps. */
const OVERSCAN = 900;
/** Images in the server's HTML, laid out by CSS until the grid is measured. */
const FIRST_PAINT = 18;

export function JustifiedGrid({
  ratios,
  renderTile,
  label,
  gap = 8,
  testId,
  reveal = null,
}: {
  /** A tile to bring on screen (its row rendered), e.g. the photo the full-screen view closed on. */
  reveal?: number | null;
  ratios: readonly number[];
  /** `fling`: whether the page is being flung past (fling.ts); a tile mounted meanwhile can wait with its picture. */
  renderTile: (index: number, size: { width: number; height: number; row: number; fling: Fling }) => ReactNode;
  label: string;
  gap?: number;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [span, setSpan] = useState<Span>([0, 0]);
  const [fling] = useState(createFling);
  useEffect(() => () => fling.dispose(), [fling]);
  const spanRef = useRef<Span>(span);
  const layout = useMemo(() => justify(ratios, width, targetRowHeight(width), gap), [ratios, width, gap]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    setWidth(el.clientWidth);
    return () => ro.disconnect();
  }, []);

  // The rendered rows move toward the screen one step a frame (stepSpan): each step is rendered
  // by React in a task of its own, after which the next frame takes the next step. Adding every
  // row a wheel step uncovered at once made tasks of 50-110 ms on the 2-core bench machine
  // (issue 42's budget: none over 50 ms). A step is a transition, so React renders it in slices
  // between frames (a row's tiles in one task were 50-90 ms there); only the commit is one piece.
  const schedule = useRef<() => void>(() => {});
  useEffect(() => {
    let frame = 0;
    // The grid's place in the page, measured again only when the page's size changes (something
    // above it grew): reading it every frame forced a layout each time (issue 42).
    let offset: number | null = null;
    const step = () => {
      frame = 0;
      const el = ref.current;
      if (!el) return;
      fling.observe(window.scrollY, performance.now());
      offset ??= el.getBoundingClientRect().top + window.scrollY;
      const top = window.scrollY - offset;
      const target = rowRange(layout, top - OVERSCAN, top + window.innerHeight + OVERSCAN);
      const screen = rowRange(layout, top, top + window.innerHeight);
      const cur = spanRef.current;
      const next = stepSpan(cur, target, screen);
      if (next[0] === cur[0] && next[1] === cur[1]) return;
      spanRef.current = next;
      startTransition(() => setSpan(next));
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(step);
    };
    const onResize = () => {
      offset = null;
      onScroll();
    };
    const ro = new ResizeObserver(onResize);
    ro.observe(document.body);
    schedule.current = onScroll;
    step();
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onResize);
    return () => {
      ro.disconnect();
      schedule.current = () => {};
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onResize);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [layout, fling]);
  // Each committed step asks for the next.
  useEffect(() => schedule.current(), [span]);

  useEffect(() => {
    const el = ref.current;
    const row = reveal == null ? undefined : layout.rows.find((r) => r.tiles.some((t) => t.index === reveal));
    if (!el || !row) return;
    const top = el.getBoundingClientRect().top + window.scrollY + row.top;
    // Off screen: scrolled to the middle; the scroll renders its row (a jump is one step).
    if (top < window.scrollY || top + row.height > window.scrollY + window.innerHeight) window.scrollTo({ top: Math.max(0, top - (window.innerHeight - row.height) / 2) });
  }, [reveal, layout]);

  const rows: Row[] = layout.rows.slice(span[0], span[1]);
  return (
    <div ref={ref} role="list" aria-label={label} data-testid={testId} className="relative w-full" style={{ height: width ? layout.height : undefined }}>
      {!width &&
        (ratios.length ? (
          // Before the width is known (the server's HTML, the first render): the first images in
          // rows justified by CSS alone (each grows with its aspect ratio), so they load and paint
          // while the page's script is still on its way; the measured layout takes over after.
          <div role="none" className="flex flex-wrap" style={{ gap }}>
            {ratios.slice(0, FIRST_PAINT).map((r, i) => (
              <div key={i} role="listitem" className="relative h-36 sm:h-52 lg:h-64" style={{ flexGrow: r, flexBasis: `${Math.round(r * 160)}px` }}>
                {renderTile(i, { width: Math.round(r * 260), height: 260, row: 0, fling })}
              </div>
            ))}
            <div aria-hidden="true" style={{ flexGrow: 10 }} />
          </div>
        ) : (
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-hidden="true">
            {Array.from({ length: 8 }, (_, i) => (
              <Skeleton key={i} className="h-36 sm:h-52" />
            ))}
          </div>
        ))}
      {rows.map((row, r) =>
        row.tiles.map((t) => (
          <div key={t.index} role="listitem" className="absolute" style={{ top: row.top, left: t.left, width: t.width, height: row.height }}>
            {renderTile(t.index, { width: t.width, height: row.height, row: span[0] + r, fling })}
          </div>
        )),
      )}
    </div>
  );
}
