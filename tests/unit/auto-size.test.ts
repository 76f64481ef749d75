// Auto quality's rule (issue 39, src/islands/ui/auto-size.ts): the smallest size covering the
// picture on screen in device pixels, for files and as the stream's cap.
import { describe, expect, test } from 'vitest';
import { autoSize, capLevel, shownHeight } from '../../src/islands/ui/auto-size.ts';

const LADDER = [
  { label: '2160p', width: 3840, height: 2160 },
  { label: '1080p', width: 1920, height: 1080 },
  { label: '720p', width: 1280, height: 720 },
  { label: '360p', width: 640, height: 360 },
];
const pick = (box: { width: number; height: number } | null, dpr = 1, saveData = false) => autoSize(LADDER, box, dpr, saveData)?.label;

describe('autoSize', () => {
  test('the admin player (846×400): the picture is 711×400, so 720p on a 1x screen and 1080p on a 2x one', () => {
    expect(shownHeight(LADDER[0]!, { width: 846, height: 400 }, 1)).toBe(400);
    expect(pick({ width: 846, height: 400 })).toBe('720p');
    expect(pick({ width: 846, height: 400 }, 2)).toBe('1080p');
  });

  test('a narrow player is limited by its width: 293×250 shows a 293×165 picture', () => {
    expect(pick({ width: 293, height: 250 })).toBe('360p');
    expect(pick({ width: 293, height: 250 }, 2)).toBe('360p');
    expect(pick({ width: 293, height: 250 }, 3)).toBe('720p');
  });

  test('exactly a rung tall takes that rung (half a device pixel of slack for fractional layouts); one pixel more the next', () => {
    expect(pick({ width: 1280, height: 360 })).toBe('360p');
    expect(pick({ width: 1280, height: 360.4 })).toBe('360p');
    expect(pick({ width: 1280, height: 361 })).toBe('720p');
  });

  test('larger than every size: the largest; Save-Data: the smallest whatever the player', () => {
    expect(pick({ width: 3840, height: 2400 }, 2)).toBe('2160p');
    expect(pick({ width: 3840, height: 2400 }, 2, true)).toBe('360p');
  });

  test('a portrait video in a landscape player is limited by the player height', () => {
    const portrait = [
      { label: '720p', width: 720, height: 1280 },
      { label: '360p', width: 360, height: 640 },
    ];
    expect(autoSize(portrait, { width: 846, height: 400 })?.label).toBe('360p');
    expect(autoSize(portrait, { width: 846, height: 700 })?.label).toBe('720p');
  });

  test('not laid out yet (0 × 0 or no element): sized for a 1280×720 player; no sizes: null', () => {
    expect(pick({ width: 0, height: 0 })).toBe('720p');
    expect(pick(null)).toBe('720p');
    expect(autoSize([], { width: 100, height: 100 })).toBeNull();
  });
});

describe('capLevel', () => {
  // hls.js lists levels lowest bit rate first.
  const levels = [...LADDER].reverse();
  test('the index of the largest level no larger than the cap', () => {
    expect(capLevel(levels, LADDER[2]!)).toBe(1);
    expect(capLevel(levels, LADDER[0]!)).toBe(3);
  });
  test('a cap below every level keeps the smallest; no cap is -1', () => {
    expect(capLevel(levels, { width: 320, height: 180 })).toBe(0);
    expect(capLevel(levels, null)).toBe(-1);
  });
});
