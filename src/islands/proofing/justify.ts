// The justified layout of a gallery (issue 42): rows of images at their own aspect ratios,
// each row scaled to fill the width, close to a target height; the last row keeps the target
// height rather than blowing a few images up. Pure, so 2,000 images lay out in a millisecond
// and the grid can render only the rows on screen (JustifiedGrid.tsx).

export interface Tile {
  index: number;
  left: number;
  width: number;
}
export interface Row {
  top: number;
  height: number;
  tiles: Tile[];
}
export interface Layout {
  rows: Row[];
  height: number;
}

/** Ratios (width / height) laid out into `width` px with rows near `target` px tall and `gap` px between. */
export function justify(ratios: readonly number[], width: number, target: number, gap: number): Layout {
  const rows: Row[] = [];
  if (width <= 0 || !ratios.length) return { rows, height: 0 };
  let top = 0;
  let start = 0;
  let sum = 0;
  const place = (end: number, height: number, fill: boolean) => {
    let left = 0;
    const tiles: Tile[] = [];
    for (let i = start; i < end; i++) {
      // The last tile of a full row takes what rounding left, so rows end flush.
      const w = fill && i === end - 1 ? width - left : Math.round(ratios[i]! * height);
      tiles.push({ index: i, left, width: Math.max(1, w) });
      left += w + gap;
    }
    rows.push({ top, height, tiles });
    top += height + gap;
  };
  for (let i = 0; i < ratios.length; i++) {
    const r = ratios[i]! > 0 && Number.isFinite(ratios[i]!) ? ratios[i]! : 1;
    sum += r;
    const count = i - start + 1;
    const height = (width - gap * (count - 1)) / sum;
    if (height <= target) {
      place(i + 1, Math.round(height), true);
      start = i + 1;
      sum = 0;
    }
  }
  if (start < ratios.length) place(ratios.length, target, false);
  return { rows, height: Math.max(0, top - gap) };
}

/** The rows whose box meets [from, to] (px from the grid's top): binary search, rows are in order. */
export function visibleRows(layout: Layout, from: number, to: number): Row[] {
  const { rows } = layout;
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.top + rows[mid]!.height < from) lo = mid + 1;
    else hi = mid;
  }
  const out: Row[] = [];
  for (let i = lo; i < rows.length && rows[i]!.top <= to; i++) out.push(rows[i]!);
  return out;
}

/** The rows whose box meets [from, to], as a half-open range of row indices ([n, n] when none). */
export function rowRange(layout: Layout, from: number, to: number): Span {
  const rows = visibleRows(layout, from, to);
  if (!rows.length) {
    // Nothing there (the grid is off screen): an empty range where the rows would start.
    const at = layout.rows.findIndex((r) => r.top > to);
    const n = at < 0 ? layout.rows.length : at;
    return [n, n];
  }
  const first = layout.rows.indexOf(rows[0]!);
  return [first, first + rows.length];
}

/** Half-open range of row indices. */
export type Span = readonly [number, number];

/**
 * One step of the rendered rows toward `target` (the screen and its overscan), `screen` being the
 * rows on screen. Rows that left the target go at once; rows come one at a time, those on screen
 * first, then below (the way most scrolling goes), then above; a jump (nothing shared) takes the
 * rows on screen in one step. Mounting a row's tiles is most of the main thread's work while
 * scrolling: a wheel step of 700 px adding three rows at once made tasks of 50-110 ms on the
 * 2-core bench machine (issue 42's budget: none over 50).
 */
export function stepSpan(current: Span, target: Span, screen: Span): Span {
  const [ta, tb] = target;
  const a = Math.max(current[0], ta);
  const b = Math.min(current[1], tb);
  if (a >= b) return screen[0] < screen[1] ? screen : target[0] < target[1] ? [ta, ta + 1] : [ta, tb];
  if (a !== current[0] || b !== current[1]) return [a, b];
  if (b < screen[1]) return [a, b + 1];
  if (a > screen[0]) return [a - 1, b];
  if (b < tb) return [a, b + 1];
  if (a > ta) return [a - 1, b];
  return current;
}

/** The row height for a width: smaller on phones, so two or three images share a row. */
export const targetRowHeight = (width: number) => (width < 500 ? 140 : width < 900 ? 200 : 260);
