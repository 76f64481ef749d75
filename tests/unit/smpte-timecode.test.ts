// SMPTE timecodes shown on hover over a timeline note (issue 16): frames from the stored frame
// rate, offset by the source's start timecode, drop-frame labels for 29.97 and 59.94.
import { describe, expect, test } from 'vitest';
import { smpteTimecode } from '../../src/shared/schemas/review.ts';
import { countedLabels } from '../helpers/drop-frame.ts';

describe('smpteTimecode', () => {
  test.each([
    ['25 fps, whole seconds', 2, 25, null, '00:00:02:00'],
    ['25 fps, half a second is frame 12', 1.5, 25, null, '00:00:01:12'],
    ['24 fps past an hour', 3661.5, 24, null, '01:01:01:12'],
    ['30 fps non-drop', 60, 30, null, '00:01:00:00'],
    ['a start timecode is added', 2, 25, '01:00:00:00', '01:00:02:00'],
    ['29.97 drop-frame: the last frame before the first minute', 60, 30000 / 1001, null, '00:00:59;28'],
    ['29.97 drop-frame: labels ;00 and ;01 are skipped after a minute', 61, 30000 / 1001, null, '00:01:01;00'],
    ['29.97 drop-frame: ten minutes drop nothing at the tenth', 600, 30000 / 1001, null, '00:10:00;00'],
    ['23.976 counts 24 labels a second, no drop', 10, 24000 / 1001, null, '00:00:09:23'],
    // A drop-frame start label names fewer frames than it reads (108 fewer at one hour).
    ['29.97 drop-frame from 01:00:00;00: the first frame is the start', 0, 30000 / 1001, '01:00:00;00', '01:00:00;00'],
    ['29.97 drop-frame from 01:00:00;00: 1.5 s', 1.5, 30000 / 1001, '01:00:00;00', '01:00:01;14'],
    ['29.97 drop-frame from 01:00:00;00: past a dropped minute', 61, 30000 / 1001, '01:00:00;00', '01:01:01;00'],
    ['29.97 drop-frame from 01:00:00;00: ten minutes on', 600, 30000 / 1001, '01:00:00;00', '01:10:00;00'],
    ['59.94 drop-frame from 01:00:00;00: the first frame is the start', 0, 60000 / 1001, '01:00:00;00', '01:00:00;00'],
  ])('%s', (_name, seconds, fps, start, expected) => {
    expect(smpteTimecode(seconds, fps, start)).toBe(expected);
  });

  test.each([null, 0, -25, Number.NaN])('no timecode without a usable frame rate (%s)', (fps) => {
    expect(smpteTimecode(5, fps)).toBeNull();
  });
});

// Issue 40: rounding the tens of minutes instead of flooring them passed every test above
// (minutes 0-4 round down either way); 5-9 and 59 are where the two differ.
describe('smpteTimecode drop-frame past the fifth minute', () => {
  const counted = { 30: countedLabels(30, 62), 60: countedLabels(60, 62) };
  /** The middle of frame `frame` in seconds, away from the float edge between two frames. */
  const middleOf = (frame: number, nominal: 30 | 60) => ((frame + 0.5) * 1001) / (nominal * 1000);

  test.each([
    [30, '00:05:00;02'],
    [30, '00:59:59;29'],
    [60, '00:05:00;04'],
    [60, '00:59:59;59'],
  ] as const)('%i fps nominal: %s', (nominal, label) => {
    const frame = counted[nominal].indexOf(label);
    expect(smpteTimecode(middleOf(frame, nominal), (nominal * 1000) / 1001)).toBe(label);
  });

  test.each([
    [30, 5],
    [30, 9],
    [30, 59],
    [60, 7],
    [60, 59],
  ] as const)('%i fps nominal: every frame of minute %i', (nominal, minute) => {
    const first = counted[nominal].indexOf(`00:${String(minute).padStart(2, '0')}:00;${nominal === 60 ? '04' : '02'}`);
    expect(first).toBeGreaterThan(0);
    const wrong: string[] = [];
    for (let frame = first; frame < first + nominal * 60; frame++) {
      const shown = smpteTimecode(middleOf(frame, nominal), (nominal * 1000) / 1001);
      if (shown !== counted[nominal][frame]) wrong.push(`frame ${frame}: ${shown}, counted ${counted[nominal][frame]}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  test('from a start of 00:59:58;00, across the hour', () => {
    const start = counted[30].indexOf('00:59:58;00');
    expect(smpteTimecode(0, 30000 / 1001, '00:59:58;00')).toBe('00:59:58;00');
    const wrong: string[] = [];
    for (let k = 0; k < 150; k++) {
      const shown = smpteTimecode(middleOf(k, 30), 30000 / 1001, '00:59:58;00');
      if (shown !== counted[30][start + k]) wrong.push(`+${k}: ${shown}, counted ${counted[30][start + k]}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(smpteTimecode(2.1, 30000 / 1001, '00:59:58;00')).toBe('01:00:00;02');
  });
});
