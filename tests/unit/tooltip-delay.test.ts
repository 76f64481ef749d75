// When a tooltip opens (000 §9: 700 ms, skip delay 300 ms). The browser tests in
// tests/e2e/public-pages.spec.ts and public-media.spec.ts cover the component itself.
import { expect, test } from 'vitest';
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS, tooltipOpenDelay } from '../../src/islands/ui/Tooltip.tsx';

test('constants', () => {
  expect([TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS]).toEqual([700, 300]);
});

test.each([
  ['no tooltip closed yet', 10_000, Number.NEGATIVE_INFINITY, 700],
  ['one closed 100 ms ago', 10_000, 9_900, 0],
  ['one closed 299 ms ago', 10_000, 9_701, 0],
  ['one closed exactly 300 ms ago', 10_000, 9_700, 700],
  ['one closed long ago', 10_000, 2_000, 700],
])('%s', (_name, now, lastClosedAt, expected) => {
  expect(tooltipOpenDelay(now, lastClosedAt)).toBe(expected);
});
