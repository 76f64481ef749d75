// Frame arithmetic under the marker writers (issue 30): exact rates, note times to frames, SMPTE
// labels both ways with drop-frame counting, FCPXML rational seconds.
import { describe, expect, test } from 'vitest';
import { frameAt, frameDuration, framesToLabel, labelToFrames, rateOf, rationalSeconds } from '../../src/server/review/markers/timecode.ts';
import { countedLabels } from '../helpers/drop-frame.ts';

describe('rateOf', () => {
  test.each([
    [23.976023976, 24000, 1001, 24, false],
    [23.98, 24000, 1001, 24, false],
    [24, 24, 1, 24, false],
    [25, 25, 1, 25, false],
    [29.97002997, 30000, 1001, 30, true],
    [50, 50, 1, 50, false],
    [59.94005994, 60000, 1001, 60, true],
    [null, 25, 1, 25, false],
    [0, 25, 1, 25, false],
    [12.5, 25, 2, 13, false],
  ])('%s fps → %i/%i, labels at %i, drop %s', (fps, num, den, nominal, drop) => {
    expect(rateOf(fps)).toMatchObject({ num, den, nominal, drop });
  });
});

describe('frames and labels', () => {
  const ntsc30 = rateOf(30000 / 1001);
  const ntsc60 = rateOf(60000 / 1001);
  test('a time stored to the whole millisecond lands on the frame it was picked on', () => {
    const r = rateOf(24000 / 1001);
    // Frame 10 starts at 417.083 ms; the player stores 417.
    expect(frameAt(417, r)).toBe(10);
    expect(frameAt(416, r)).toBe(9);
    expect(frameAt(0, r)).toBe(0);
  });
  test.each([
    ['00:00:59;29', 1799],
    ['00:01:00;02', 1800],
    ['00:10:00;00', 17982],
    ['01:00:00;00', 107892],
  ])('29.97 DF %s is frame %i, both ways', (label, frames) => {
    expect(labelToFrames(label, ntsc30)).toBe(frames);
    expect(framesToLabel(frames, ntsc30)).toBe(label);
  });
  test.each([
    ['00:01:00;04', 3600],
    ['01:00:00;00', 215784],
  ])('59.94 DF %s is frame %i, both ways', (label, frames) => {
    expect(labelToFrames(label, ntsc60)).toBe(frames);
    expect(framesToLabel(frames, ntsc60)).toBe(label);
  });
  test('a start timecode written with colons at 29.97 is read as its drop-frame label', () => {
    expect(labelToFrames('01:00:00:00', ntsc30)).toBe(107892);
  });
  test('unreadable start timecodes are none', () => {
    expect(labelToFrames('nonsense', ntsc30)).toBeNull();
    expect(labelToFrames(null, ntsc30)).toBeNull();
  });
});

describe('FCPXML rational time', () => {
  test.each([
    [24000 / 1001, 86400, '86486400/24000s', '1001/24000s'],
    [25, 90000, '3600s', '100/2500s'],
    [25, 1, '100/2500s', '100/2500s'],
    [30000 / 1001, 0, '0s', '1001/30000s'],
  ])('%s fps, %i frames → %s (frame %s)', (fps, frames, time, one) => {
    expect(rationalSeconds(frames, rateOf(fps))).toBe(time);
    expect(frameDuration(rateOf(fps))).toBe(one);
  });
});

describe('drop-frame labels past the fifth minute (issue 40)', () => {
  const ntsc30 = rateOf(30000 / 1001);
  const ntsc60 = rateOf(60000 / 1001);
  const counted30 = countedLabels(30, 61);
  const counted60 = countedLabels(60, 61);

  test.each([
    ['00:05:00;02', 8992],
    ['00:07:30;15', 13_501],
    ['00:09:59;29', 17_981],
    ['00:59:59;29', 107_891],
    ['01:00:00;00', 107_892],
  ])('29.97 DF %s is frame %i, both ways', (label, frames) => {
    expect(counted30[frames]).toBe(label);
    expect(labelToFrames(label, ntsc30)).toBe(frames);
    expect(framesToLabel(frames, ntsc30)).toBe(label);
  });

  test.each([
    ['00:05:00;04', 17_984],
    ['00:59:59;59', 215_783],
  ])('59.94 DF %s is frame %i, both ways', (label, frames) => {
    expect(counted60[frames]).toBe(label);
    expect(labelToFrames(label, ntsc60)).toBe(frames);
    expect(framesToLabel(frames, ntsc60)).toBe(label);
  });

  test.each([
    [30, 5],
    [30, 9],
    [30, 59],
    [60, 5],
    [60, 59],
  ] as const)('%i fps nominal: every frame of minute %i, both ways', (nominal, minute) => {
    const [rate, counted] = nominal === 30 ? [ntsc30, counted30] : [ntsc60, counted60];
    const first = counted.indexOf(`00:${String(minute).padStart(2, '0')}:00;${nominal === 60 ? '04' : '02'}`);
    expect(first).toBeGreaterThan(0);
    const wrong: string[] = [];
    for (let frame = first; frame < first + nominal * 60; frame++) {
      const label = counted[frame]!;
      if (framesToLabel(frame, rate) !== label) wrong.push(`${frame} → ${framesToLabel(frame, rate)}, counted ${label}`);
      if (labelToFrames(label, rate) !== frame) wrong.push(`${label} → ${labelToFrames(label, rate)}, counted ${frame}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  test('from a start of 00:59:58;00, notes land on the labels counted across the hour', () => {
    const start = labelToFrames('00:59:58;00', ntsc30)!;
    expect(counted30[start]).toBe('00:59:58;00');
    // Two seconds of 29.97 is frame 59, the last before the hour; 62 crosses it (no drop at minute 60).
    expect(framesToLabel(start + frameAt(2000, ntsc30), ntsc30)).toBe('00:59:59;29');
    expect(framesToLabel(start + frameAt(2100, ntsc30), ntsc30)).toBe('01:00:00;02');
    expect(counted30[start + 62]).toBe('01:00:00;02');
  });
});
