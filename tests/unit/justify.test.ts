// The gallery's justified rows (issue 42): full rows end flush with the width, rows stay near
// the target height, the last row keeps it, only rows on screen are picked, and the rendered
// rows move toward the screen a row at a time.
import { describe, expect, test } from 'vitest';
import { justify, rowRange, stepSpan, visibleRows, type Span } from '../../src/islands/proofing/justify.ts';

describe('justify', () => {
  test('full rows fill the width exactly; the last keeps the target height', () => {
    const ratios = [1.5, 0.667, 1.5, 1.5, 1, 0.75, 1.5, 2];
    const { rows, height } = justify(ratios, 1000, 250, 8);
    for (const row of rows.slice(0, -1)) {
      const last = row.tiles.at(-1)!;
      expect(last.left + last.width).toBe(1000);
      expect(row.height).toBeLessThanOrEqual(250);
      expect(row.height).toBeGreaterThan(120);
    }
    expect(rows.flatMap((r) => r.tiles.map((t) => t.index))).toEqual(ratios.map((_, i) => i));
    expect(height).toBe(rows.at(-1)!.top + rows.at(-1)!.height);
    // Five squares: four fill a row at (1000 - 3 × 8) / 4 = 244 px; the fifth keeps 250 px, unstretched.
    const squares = justify([1, 1, 1, 1, 1], 1000, 250, 8);
    expect(squares.rows.map((r) => [r.height, r.tiles.length])).toEqual([
      [244, 4],
      [250, 1],
    ]);
    expect(squares.rows[1]!.tiles[0]!.width).toBe(250);
  });

  test('2,000 images lay out quickly, and only the rows on screen are visible', () => {
    const ratios = Array.from({ length: 2000 }, (_, i) => (i % 3 === 0 ? 0.667 : 1.5));
    const t = performance.now();
    const layout = justify(ratios, 1280, 260, 8);
    expect(performance.now() - t).toBeLessThan(50);
    const shown = visibleRows(layout, 10_000, 10_900);
    expect(shown.length).toBeGreaterThan(2);
    expect(shown.length).toBeLessThan(8);
    expect(shown[0]!.top + shown[0]!.height).toBeGreaterThanOrEqual(10_000);
    expect(shown.at(-1)!.top).toBeLessThanOrEqual(10_900);
    expect(visibleRows(layout, layout.height + 10, layout.height + 500)).toEqual([]);
  });
});

describe('rowRange', () => {
  const layout = justify(Array.from({ length: 100 }, () => 1), 1000, 250, 8);
  test.each([
    ['the rows meeting the range', 0, 600, [0, 3]],
    ['a range inside one row', 300, 310, [1, 2]],
    ['above the grid: empty, at the first row', -900, -10, [0, 0]],
    ['below the grid: empty, after the last row', layout.height + 10, layout.height + 900, [layout.rows.length, layout.rows.length]],
  ] as const)('%s', (_, from, to, want) => {
    expect(rowRange(layout, from, to)).toEqual(want);
  });
});

describe('stepSpan', () => {
  // Rows 10-30 are the target (screen 16-20 and its overscan).
  const target: Span = [10, 30];
  const screen: Span = [16, 20];
  test.each<[string, Span, Span]>([
    ['nothing rendered: the rows on screen at once', [0, 0], [16, 20]],
    ['a jump far away (nothing shared): the rows on screen at once', [80, 95], [16, 20]],
    ['rows that left the target go in one step', [5, 22], [10, 22]],
    ['rows that left the target at both ends go in one step', [5, 40], [10, 30]],
    ['rows on screen missing below come first, one', [12, 17], [12, 18]],
    ['rows on screen missing above come next, one', [17, 20], [16, 20]],
    ['then the overscan below, one', [16, 20], [16, 21]],
    ['then the overscan above, one', [14, 30], [13, 30]],
    ['at the target: no change', [10, 30], [10, 30]],
  ])('%s', (_, current, want) => {
    expect(stepSpan(current, target, screen)).toEqual(want);
  });

  test('steps reach the target and stop; no step adds more than one row', () => {
    let cur: Span = [40, 60];
    const seen: Span[] = [];
    for (let i = 0; i < 100; i++) {
      const next = stepSpan(cur, target, screen);
      if (next[0] === cur[0] && next[1] === cur[1]) break;
      if (next[0] <= cur[1] && next[1] >= cur[0] && cur[0] < cur[1]) expect(next[1] - next[0] - (cur[1] - cur[0])).toBeLessThanOrEqual(1);
      seen.push(next);
      cur = next;
    }
    expect(cur).toEqual(target);
    expect(seen[0]).toEqual(screen);
    expect(seen.length).toBe(1 + (30 - 20) + (16 - 10));
  });

  test('with no rows to show (the grid off screen) the target is empty and nothing renders', () => {
    expect(stepSpan([3, 8], [0, 0], [0, 0])).toEqual([0, 0]);
    expect(stepSpan([0, 0], [0, 0], [0, 0])).toEqual([0, 0]);
  });
});
