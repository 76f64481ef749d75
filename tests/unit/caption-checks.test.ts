// The reading checks of the caption editor (issue 54 item 3): each figure warned about just past
// it and not at it (src/shared/caption-checks.ts names the figures and their sources).
import { describe, expect, test } from 'vitest';
import { READING_CHECKS, describeWarning, readingWarnings, type CheckedCue } from '../../src/shared/caption-checks.ts';

const cue = (startMs: number, endMs: number, text: string): CheckedCue => ({ startMs, endMs, text });
const kinds = (cues: CheckedCue[], fps: number | null = 25) => readingWarnings(cues, fps).map((w) => w.map((x) => x.kind));

describe('reading checks', () => {
  test.each([
    { name: 'two lines of 42 characters over 5 s', cues: [cue(0, 5000, `${'a'.repeat(42)}\n${'b'.repeat(42)}`)], expected: [[]] },
    { name: 'three lines', cues: [cue(0, 5000, 'one\ntwo\nthree')], expected: [['lines']] },
    { name: 'a line of 43 characters', cues: [cue(0, 5000, 'a'.repeat(43))], expected: [['line-length']] },
    { name: 'tags do not count as characters', cues: [cue(0, 5000, `<i>${'a'.repeat(42)}</i>`)], expected: [[]] },
    { name: '20 characters a second', cues: [cue(0, 1000, 'a'.repeat(20))], expected: [[]] },
    { name: '21 characters a second', cues: [cue(0, 1000, 'a'.repeat(21))], expected: [['reading-speed']] },
    { name: '833 ms on screen', cues: [cue(0, 833, 'Hi')], expected: [[]] },
    { name: '832 ms on screen', cues: [cue(0, 832, 'Hi')], expected: [['duration']] },
    { name: 'a gap of 2 frames at 25 fps', cues: [cue(0, 1000, 'A'), cue(1080, 2080, 'B')], expected: [[], []] },
    { name: 'a gap of 1 frame at 25 fps', cues: [cue(0, 1000, 'A'), cue(1040, 2040, 'B')], expected: [['gap'], []] },
    { name: 'cues that touch', cues: [cue(0, 1000, 'A'), cue(1000, 2000, 'B')], expected: [['gap'], []] },
    { name: 'overlapping cues (two speakers)', cues: [cue(0, 1500, 'A'), cue(1000, 2000, 'B')], expected: [[], []] },
    { name: 'a pause of a second', cues: [cue(0, 1000, 'A'), cue(2000, 3000, 'B')], expected: [[], []] },
  ])('$name', ({ cues, expected }) => {
    expect(kinds(cues)).toEqual(expected);
  });

  test('the gap is counted in the film\'s own frames: 50 ms is 3 frames at 60 fps, 1 at 25', () => {
    const cues = [cue(0, 1000, 'A'), cue(1050, 2050, 'B')];
    expect(kinds(cues, 60)).toEqual([[], []]);
    expect(kinds(cues, 25)).toEqual([['gap'], []]);
  });

  test('each warning says its figure and the limit', () => {
    const [w] = readingWarnings([cue(0, 500, `${'a'.repeat(50)}\nb\nc`)], 25);
    expect(w!.map(describeWarning)).toEqual([
      `3 lines: at most ${READING_CHECKS.maxLines}`,
      'Line 1 has 50 characters: at most 42',
      '108 characters a second: at most 20',
      'On screen 0.50 s: at least 0.833 s',
    ]);
  });
});
