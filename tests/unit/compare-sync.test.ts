// Compare versions (issue 30): picking the pair, offsets in whole frames, what the sync loop
// does about a drift, frame steps and the wipe divider, table by table.
import { describe, expect, test } from 'vitest';
import {
  clampTime,
  driftFrames,
  followerTarget,
  formatOffset,
  parseCompareParam,
  pictureLag,
  LAG_WINDOW_MS,
  pickPair,
  sideTime,
  stepFrame,
  syncAction,
  timelineOf,
  wipeFromPointer,
  wipeKey,
} from '../../src/islands/review/compare-sync.ts';

const stack = (numbers: number[], current = numbers[numbers.length - 1]) => numbers.map((n) => ({ number: n, current: n === current }));
const pair = (r: ReturnType<typeof pickPair<{ number: number; current: boolean }>>) => ('error' in r ? r.error : [r.left.number, r.right.number]);

describe('parseCompareParam', () => {
  test.each([
    [null, null],
    ['', null],
    ['2,3', [2, 3]],
    [' 3 , 1 ', [3, 1]],
    ['v1,v2', [1, 2]],
  ])('%j → %j', (raw, expected) => {
    expect(parseCompareParam(raw)).toEqual(expected);
  });

  test.each(['2', '1,2,3', 'a,b', '0,1', '-1,2', '1.5,2', '1,'])('%j is refused, naming the parameter', (raw) => {
    expect(parseCompareParam(raw)).toEqual({ error: `compare: "${raw}" is not two version numbers (for example ?compare=1,2)` });
  });
});

describe('pickPair', () => {
  test.each([
    ['default: previous and current', stack([1, 2, 3]), null, [2, 3]],
    ['default with two versions', stack([1, 2]), '', [1, 2]],
    ['default when the current one is the oldest left', stack([1, 2], 1), null, [1, 2]],
    ['default after a middle version was deleted', stack([1, 3, 4]), null, [3, 4]],
    ['asked for by number, in that order', stack([1, 2, 3]), '3,1', [3, 1]],
    ['only one version', stack([1]), null, 'This item has only one version, so there is nothing to compare yet.'],
    ['only one version, even when asked', stack([1]), '1,2', 'This item has only one version, so there is nothing to compare yet.'],
    ['a version of another item', stack([1, 2]), '2,7', 'v7 is not a version of this item (it has v1, v2).'],
    ['the same version twice', stack([1, 2]), '2,2', 'Pick two different versions to compare (both were v2).'],
    ['not numbers', stack([1, 2]), 'x', 'compare: "x" is not two version numbers (for example ?compare=1,2)'],
  ])('%s', (_name, versions, raw, expected) => {
    expect(pair(pickPair(versions, raw))).toEqual(expected);
  });
});

describe('offsets', () => {
  test.each([
    [0, '0 frames'],
    [1, '+1 frame'],
    [2, '+2 frames'],
    [-1, '-1 frame'],
    [-12, '-12 frames'],
  ])('formatOffset(%d) = %s', (frames, text) => {
    expect(formatOffset(frames)).toBe(text);
  });

  test.each([
    // leader time, leader side, follower side, follower target
    ['no offsets', 2, { offset: 0, fps: 25 }, { offset: 0, fps: 25 }, 2],
    ['follower +2 frames at 25', 2, { offset: 0, fps: 25 }, { offset: 2, fps: 25 }, 2.08],
    ['follower -3 frames at 24', 1, { offset: 0, fps: 24 }, { offset: -3, fps: 24 }, 0.875],
    ['leader +5 frames cancels follower +5', 3, { offset: 5, fps: 25 }, { offset: 5, fps: 25 }, 3],
    ['leader +5 at 25, follower at 50 fps', 3, { offset: 5, fps: 25 }, { offset: 0, fps: 50 }, 2.8],
    ['unknown rate counts 25', 1, { offset: 0, fps: null }, { offset: 1, fps: null }, 1.04],
  ])('followerTarget: %s', (_name, t, leader, follower, expected) => {
    expect(followerTarget(t, leader, follower)).toBeCloseTo(expected, 9);
  });

  test('sideTime and timelineOf are inverse', () => {
    for (const side of [{ offset: 3, fps: 29.97 }, { offset: -7, fps: 24000 / 1001 }, { offset: 0, fps: 50 }]) {
      expect(timelineOf(sideTime(12.345, side), side)).toBeCloseTo(12.345, 9);
    }
  });

  test.each([
    [-0.1, 10, 0],
    [5, 10, 5],
    [12, 10, 10],
    [12, null, 12],
    [12, Number.NaN, 12],
  ])('clampTime(%d, %s) = %d', (t, d, expected) => {
    expect(clampTime(t, d)).toBe(expected);
  });
});

describe('syncAction', () => {
  test.each([
    // drift (s), fps, the follower's speed now, expected
    ['in step', 0, 25, 1, { kind: 'hold' }],
    ['under a quarter frame ahead', 0.0099, 25, 1, { kind: 'hold' }],
    ['under a quarter frame behind', -0.0099, 25, 1, { kind: 'hold' }],
    ['half a frame ahead: slower before it shows', 0.02, 25, 1, { kind: 'rate', rate: 0.9 }],
    ['one frame behind: faster', -0.04, 25, 1, { kind: 'rate', rate: 1.1 }],
    ['two frames ahead: 25 % slower', 0.08, 25, 1, { kind: 'rate', rate: 0.75 }],
    ['three frames behind: 25 % faster', -0.12, 25, 1, { kind: 'rate', rate: 1.25 }],
    ['a quarter frame at 60 fps is less time', 0.005, 60, 1, { kind: 'rate', rate: 0.9 }],
    ['correcting: kept on under a quarter frame', 0.005, 25, 0.9, { kind: 'rate', rate: 0.9 }],
    ['correcting: stops once nearly gone', 0.0015, 25, 0.9, { kind: 'hold' }],
    ['correcting: stops once it changed side', -0.005, 25, 0.9, { kind: 'hold' }],
    ['correcting behind: stops once it changed side', 0.005, 25, 1.1, { kind: 'hold' }],
    ['correcting: faster still when it grew past a frame', -0.1, 25, 1.1, { kind: 'rate', rate: 1.25 }],
    ['beyond half a second: seek', 0.6, 25, 1, { kind: 'seek', to: 7 }],
    ['beyond half a second behind, while correcting: seek', -2, 25, 1.1, { kind: 'seek', to: 7 }],
  ])('%s', (_name, drift, fps, rate, expected) => {
    expect(syncAction(drift, 7, fps, rate)).toEqual(expected);
  });

  test.each([
    [2.04, 2, 25, 1],
    [1.98, 2, 25, -0.5],
    [2, 2, 50, 0],
  ])('driftFrames(%d, %d, %d) = %d', (t, target, fps, expected) => {
    expect(driftFrames(t, target, fps)).toBeCloseTo(expected, 9);
  });
});

// Frames of a 25 fps clock shown on a 60 Hz screen: each goes up at the first refresh on or
// after its time (plus `late` ms of the screen's own), as a browser shows them.
function shownFrames(clockAtZero: number, fromMs: number, toMs: number, late = 0, refresh = 1000 / 60) {
  const out: Array<{ mediaTime: number; expectedDisplayTime: number }> = [];
  for (let k = Math.ceil((clockAtZero + fromMs / 1000) * 25); ; k++) {
    const mediaTime = k / 25;
    const due = (mediaTime - clockAtZero) * 1000 + late;
    if (due > toMs) break;
    out.push({ mediaTime, expectedDisplayTime: Math.ceil(due / refresh - 1e-9) * refresh });
  }
  return out;
}

describe('pictureLag', () => {
  test.each([
    ['frames shown on time: no lag', 10, 0, 0],
    ['frames shown 27 ms late (the latency of a sound output)', 10, 27, 0.027],
    ['frames shown 5 ms late', 3, 5, 0.005],
  ])('%s', (_name, clockAtZero, late, lag) => {
    const now = 5000;
    const frames = shownFrames(clockAtZero, now - LAG_WINDOW_MS, now, late);
    const clock = clockAtZero + now / 1000;
    // Within a refresh's phase step of 25 fps against 60 Hz (3.3 ms), since every phase occurs in the window.
    expect(Math.abs(pictureLag(frames, now, clock)! - lag)).toBeLessThan(0.0034);
  });

  test('dropped frames (a third of them) leave the lag as it is', () => {
    const now = 5000;
    const frames = shownFrames(2, now - LAG_WINDOW_MS, now, 20).filter((_, i) => i % 3 !== 1);
    expect(Math.abs(pictureLag(frames, now, 2 + now / 1000)! - 0.02)).toBeLessThan(0.0034);
  });

  test.each([
    ['too few frames (start-up)', shownFrames(0, 4900, 5000).slice(0, 3)],
    ['only frames older than the window', shownFrames(0, 1000, 2000)],
    ['frames a second away from the clock (a stall, a seek)', shownFrames(-1, 4000, 5000)],
    ['no frame shown for the last 200 ms (the video stands)', shownFrames(0, 4000, 4800)],
  ])('no lag known: %s', (_name, frames) => {
    expect(pictureLag(frames, 5000, 5)).toBeNull();
  });
});

describe('stepFrame', () => {
  test.each([
    ['forward from a frame start', 1, 1, 25, 10, 1.06],
    ['back from a frame start', 1, -1, 25, 10, 0.98],
    ['forward from mid-frame', 1.02, 1, 25, 10, 1.06],
    ['not before the first frame', 0.01, -1, 25, 10, 0.02],
    ['not past the last frame', 9.99, 1, 25, 10, 9.98],
    ['unknown length', 100, 1, 24, null, 100.0625],
  ])('%s', (_name, time, dir, fps, duration, expected) => {
    expect(stepFrame(time, dir as 1 | -1, fps, duration)).toBeCloseTo(expected, 9);
  });
});

describe('wipe divider', () => {
  test.each([
    [50, 'ArrowRight', false, 51],
    [50, 'ArrowUp', false, 51],
    [50, 'ArrowLeft', false, 49],
    [50, 'ArrowLeft', true, 40],
    [95, 'ArrowRight', true, 100],
    [3, 'PageDown', false, 0],
    [50, 'PageUp', false, 60],
    [50, 'Home', false, 0],
    [50, 'End', false, 100],
    [50, 'Enter', false, null],
  ])('%d + %s (shift %s) = %s', (value, key, shift, expected) => {
    expect(wipeKey(value, key, shift)).toBe(expected);
  });

  test.each([
    [150, 100, 200, 25],
    [0, 100, 200, 0],
    [400, 100, 200, 100],
    [133.33, 100, 200, 16.7],
    [10, 0, 0, 50],
  ])('pointer at %d over [%d, +%d] = %d %%', (x, left, width, expected) => {
    expect(wipeFromPointer(x, left, width)).toBe(expected);
  });
});
