// The gallery grid's fling detector (issue 42): what counts as a fling, when it settles, and that
// a tile waiting for its picture hears it once.
import { describe, expect, test } from 'vitest';
import { createFling, FLING_SPEED, SETTLE_MS } from '../../src/islands/proofing/fling.ts';

/** A fling with a hand-driven clock: `run()` fires the pending settle timer. */
function manual() {
  let pending: (() => void) | null = null;
  let delay = 0;
  const fling = createFling(
    (fn, ms) => {
      pending = fn;
      delay = ms;
      return 1;
    },
    () => (pending = null),
  );
  return { fling, run: () => pending?.(), pending: () => pending != null, delay: () => delay };
}

describe('fling', () => {
  test.each([
    ['a wheel step of 700 px in a frame', 700, 16, true],
    ['a reader scrolling a wheel notch (100 px) over 150 ms', 100, 150, false],
    ['just over the speed', FLING_SPEED * 50 + 1, 50, true],
    ['just under the speed', FLING_SPEED * 50 - 1, 50, false],
    ['two events in one frame count as a frame', FLING_SPEED * 16 - 1, 2, false],
    ['scrolling up as fast', -700, 16, true],
  ])('%s', (_name, dy, dt, expected) => {
    const { fling } = manual();
    fling.observe(1000, 0);
    fling.observe(1000 + dy, dt);
    expect(fling.moving()).toBe(expected);
  });

  test('the first position is no fling, whatever it is', () => {
    const { fling } = manual();
    fling.observe(50_000, 0);
    expect(fling.moving()).toBe(false);
  });

  test('settles SETTLE_MS after the last fast frame and tells each waiting tile once', () => {
    const { fling, run, pending, delay } = manual();
    fling.observe(0, 0);
    fling.observe(700, 16);
    const heard: string[] = [];
    fling.onSettle(() => heard.push('a'));
    const stop = fling.onSettle(() => heard.push('b'));
    stop();
    expect(pending()).toBe(true);
    expect(delay()).toBe(SETTLE_MS);
    run();
    expect(fling.moving()).toBe(false);
    expect(heard).toEqual(['a']);
    run();
    expect(heard).toEqual(['a']);
  });

  test('a tile that asks when nothing moves is told at once', () => {
    const { fling } = manual();
    const heard: number[] = [];
    fling.onSettle(() => heard.push(1));
    expect(heard).toEqual([1]);
  });

  test('dispose drops the timer and the waiting tiles', () => {
    const { fling, pending } = manual();
    fling.observe(0, 0);
    fling.observe(900, 16);
    let heard = false;
    fling.onSettle(() => (heard = true));
    fling.dispose();
    expect(pending()).toBe(false);
    expect(heard).toBe(false);
  });
});
