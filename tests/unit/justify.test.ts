// The gallery's justified rows (issue 42): full rows end flush with the width, rows stay near
// the target height, the last row keeps it, and only rows on screen are picked.
import { describe, expect, test } from 'vitest';
import { justify, visibleRows } from '../../src/islands/proofing/justify.ts';

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
