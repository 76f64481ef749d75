// The reading checks subtitlers use (issue 54 item 3), shown as warnings while captions are
// edited: never refusals, since a song lyric or a sign may break any of them on purpose.
//
// The figures, and where they come from:
// - 2 lines a cue, 42 characters a line: Netflix's Timed Text Style Guide (General
//   Requirements, for most Latin-script languages); the BBC's Subtitle Guidelines ask for about
//   37 on a 16:9 screen, so 42 is the most any of them allows.
// - 20 characters a second: Netflix's reading speed for adult programmes in English (17 for
//   children's); the BBC's 160–180 words a minute is about 15–17. Characters counted without
//   tags, spaces included, over the cue's whole duration.
// - 5/6 of a second (833 ms) at least on screen: Netflix's minimum duration.
// - 2 frames at least between two cues that follow each other closely (a gap under half a
//   second): Netflix's minimum gap, so a viewer sees that the text changed. Overlapping cues
//   (two speakers at once) are allowed and are not warned about.
// The editor (src/islands/captions/CaptionEditor.tsx) and docs/captions.md show these figures.

export const READING_CHECKS = {
  maxLines: 2,
  maxLineChars: 42,
  maxCharsPerSecond: 20,
  minDurationMs: 833,
  minGapFrames: 2,
  /** Gaps longer than this are pauses, not cues following each other. */
  closeGapMs: 500,
} as const;

/** Without a known frame rate, a frame is taken as 1/25 s (PAL, the UK's broadcast rate). */
export const FALLBACK_FPS = 25;

export interface CheckedCue {
  startMs: number;
  endMs: number;
  /** The editor's form: lines split by LF, <i>, <b>, <u> as tags. */
  text: string;
}

export type ReadingWarning =
  | { kind: 'lines'; lines: number }
  | { kind: 'line-length'; line: number; chars: number }
  | { kind: 'reading-speed'; charsPerSecond: number }
  | { kind: 'duration'; ms: number }
  | { kind: 'gap'; frames: number };

const visible = (line: string) => line.replace(/<\/?[ibu]>/gi, '');

/** The warnings of each cue (same order as `cues`, which are in order of their start). */
export function readingWarnings(cues: readonly CheckedCue[], fps: number | null): ReadingWarning[][] {
  const frameMs = 1000 / (fps && fps > 0 ? fps : FALLBACK_FPS);
  return cues.map((c, i) => {
    const out: ReadingWarning[] = [];
    const lines = c.text.split('\n').map(visible).filter((l) => l.trim() !== '');
    if (lines.length > READING_CHECKS.maxLines) out.push({ kind: 'lines', lines: lines.length });
    lines.forEach((l, n) => {
      const chars = [...l.trim()].length;
      if (chars > READING_CHECKS.maxLineChars) out.push({ kind: 'line-length', line: n + 1, chars });
    });
    const ms = c.endMs - c.startMs;
    const chars = [...lines.join(' ')].length;
    if (ms > 0) {
      const cps = (chars * 1000) / ms;
      if (cps > READING_CHECKS.maxCharsPerSecond) out.push({ kind: 'reading-speed', charsPerSecond: Math.round(cps * 10) / 10 });
    }
    if (ms < READING_CHECKS.minDurationMs) out.push({ kind: 'duration', ms });
    const next = cues[i + 1];
    if (next) {
      const gap = next.startMs - c.endMs;
      // A frame and a half of rounding: times in whole milliseconds sit within a millisecond of frames.
      if (gap >= 0 && gap < READING_CHECKS.closeGapMs && gap < READING_CHECKS.minGapFrames * frameMs - 1) out.push({ kind: 'gap', frames: Math.round(gap / frameMs) });
    }
    return out;
  });
}

/** A warning as the editor says it. */
export function describeWarning(w: ReadingWarning): string {
  switch (w.kind) {
    case 'lines':
      return `${w.lines} lines: at most ${READING_CHECKS.maxLines}`;
    case 'line-length':
      return `Line ${w.line} has ${w.chars} characters: at most ${READING_CHECKS.maxLineChars}`;
    case 'reading-speed':
      return `${w.charsPerSecond} characters a second: at most ${READING_CHECKS.maxCharsPerSecond}`;
    case 'duration':
      return `On screen ${(w.ms / 1000).toFixed(2)} s: at least ${(READING_CHECKS.minDurationMs / 1000).toFixed(3)} s`;
    case 'gap':
      return `${w.frames} frame${w.frames === 1 ? '' : 's'} before the next cue: at least ${READING_CHECKS.minGapFrames}`;
  }
}
