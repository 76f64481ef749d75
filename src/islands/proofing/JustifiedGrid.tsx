// A virtualised justified grid (issue 42): every image keeps its aspect ratio, rows fill the
// width, and only the rows near the screen are in the DOM (2,000 images scroll as smoothly as
// 20). The page scrolls, not the grid, so keyboard focus moving to a tile off screen scrolls it
// in and renders its row.
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { justify, targetRowHeight, visibleRows, type Row } from './justify.ts';
import { Skeleton } from '../ui/Skeleton.tsx';

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
}: {
  ratios: readonly number[];
  renderTile: (index: number, size: { width: number; height: number; row: number }) => ReactNode;
  label: string;
  gap?: number;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [span, setSpan] = useState<[number, number]>([0, 0]);
  const layout = useMemo(() => justify(ratios, width, targetRowHeight(width), gap), [ratios, width, gap]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    setWidth(el.clientWidth);
    return () => ro.disconnect();
  }, []);

  useEffect(() => {
    let frame = 0;
    const measure = () => {
      frame = 0;
      const el = ref.current;
      if (!el) return;
      const top = -el.getBoundingClientRect().top;
      const rows = visibleRows(layout, top - OVERSCAN, top + window.innerHeight + OVERSCAN);
      const first = rows.length ? layout.rows.indexOf(rows[0]!) : 0;
      const next: [number, number] = [first, first + rows.length];
      // A new state only when the rendered rows change: scrolling within them re-renders nothing.
      setSpan((cur) => (cur[0] === next[0] && cur[1] === next[1] ? cur : next));
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure();
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [layout]);

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
                {renderTile(i, { width: Math.round(r * 260), height: 260, row: 0 })}
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
            {renderTile(t.index, { width: t.width, height: row.height, row: span[0] + r })}
          </div>
        )),
      )}
    </div>
  );
}
