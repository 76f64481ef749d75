// Where a paused player seeks so its time names the picture it shows (issue 51,
// src/islands/ui/paused-frame.ts): the painted frame's start at the version's rate, as a frame
// step seeks; the picture's own time without a rate; nothing when it stands there already.
import { expect, test } from 'vitest';
import { settleTime } from '../../src/islands/ui/paused-frame.ts';
import { frameIndex } from '../../src/islands/ui/frame-grid.ts';

test.each([
  // [picture (media time of the painted frame), currentTime, fps, expected seek]
  { case: 'picture a frame ahead of the time (the issue: 117 shown, 4.6687 s)', picture: 4.68, current: 4.6687, fps: 25, to: 117 / 25 + 0.0001 },
  { case: 'picture a frame behind the time (a busy decoder)', picture: 2.36, current: 2.4213, fps: 25, to: 59 / 25 + 0.0001 },
  { case: 'the same frame, mid-frame: to its start', picture: 1.28, current: 1.2991, fps: 25, to: 32 / 25 + 0.0001 },
  { case: 'already on its start: nothing', picture: 1.28, current: 32 / 25 + 0.0001, fps: 25, to: null },
  { case: '29.97: a frame start a hair under k/fps is frame k', picture: (117 * 1001) / 30000 - 1e-7, current: 3.9, fps: 30000 / 1001, to: 117 / (30000 / 1001) + 0.0001 },
  { case: 'no rate (the public player): the picture’s own time', picture: 3.52, current: 3.5378, fps: null, to: 3.5201 },
])('$case', ({ picture, current, fps, to }) => {
  const got = settleTime(picture, current, fps);
  if (to === null) return expect(got).toBeNull();
  expect(got).toBeCloseTo(to, 9);
  // Read back as the time field and a saved note read it: the painted frame.
  if (fps) expect(frameIndex(Math.round(got! * 1000), fps)).toBe(frameIndex(picture * 1000, fps));
});
