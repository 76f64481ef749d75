// SMPTE timecodes shown on hover over a timeline note (issue 16): frames from the stored frame
// rate, offset by the source's start timecode, drop-frame labels for 29.97 and 59.94.
import { describe, expect, test } from 'vitest';
import { smpteTimecode } from '../../src/shared/schemas/review.ts';

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
