// Caption files read as editors really write them (issue 54): SRT, WebVTT and SubViewer (SBV);
// any line ending; `,` or `.` before the milliseconds, one to three digits of them; WebVTT
// without hours; cue numbers missing, wrong or repeated; no blank line between cues, or a blank
// line inside one; cues out of order or overlapping. What is repaired is said in `notes`; what
// cannot be read is refused naming the line (CaptionInputError), and nothing is stored.
import { normaliseLineBreaks } from '../../shared/schemas/text.ts';
import { cleanCueText, vttSettings, type Notes } from './cue-text.ts';
import { CaptionInputError } from './errors.ts';

export type CaptionFormat = 'srt' | 'vtt' | 'sbv';

export interface Cue {
  startMs: number;
  endMs: number;
  /** Stored form: escaped text with <i>, <b>, <u> only (cue-text.ts). */
  text: string;
  /** WebVTT cue settings ("line:0"), or "". */
  settings: string;
  /** The file's line of the cue's timing (messages). */
  line: number;
}

export interface ParsedCaptions {
  format: CaptionFormat;
  cues: Cue[];
  notes: string[];
}

/** More than a feature film's worth many times over (a two-hour film has about 2,500). */
export const MAX_CUES = 10_000;
/** Cues on screen at once: more cannot be read, and is a broken file (a cue per frame, each lasting the film). */
export const MAX_ON_SCREEN = 4;

const TIME = String.raw`(?:(\d{1,3}):)?(\d{1,2}):(\d{1,2})[,.](\d{1,3})`;
const TIMING_RE = new RegExp(String.raw`^\s*${TIME}\s*-->\s*${TIME}(?:\s+(.*))?$`);
const SBV_RE = /^\s*(\d{1,3}):(\d{1,2}):(\d{1,2})\.(\d{1,3})\s*,\s*(\d{1,3}):(\d{1,2}):(\d{1,2})\.(\d{1,3})\s*$/;

/** mm:ss.ms as a film's time, for messages. */
export function formatTime(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

function toMs(line: number, h: string | undefined, m: string, s: string, frac: string): number {
  const minutes = Number(m);
  const seconds = Number(s);
  if (minutes > 59 || seconds > 59) throw new CaptionInputError(line, `${h ? `${h}:` : ''}${m}:${s} is not a time (minutes and seconds run to 59)`);
  return (Number(h ?? 0) * 3600 + minutes * 60 + seconds) * 1000 + Math.round(Number(`0.${frac}`) * 1000);
}

const timingProblem = (line: number, text: string) =>
  new CaptionInputError(line, `the cue timing "${text.trim().slice(0, 60)}" cannot be read (expected e.g. 00:00:01,000 --> 00:00:02,500)`);

function detect(lines: string[]): CaptionFormat {
  const first = lines.find((l) => l.trim() !== '') ?? '';
  if (/^WEBVTT(?:[ \t]|$)/.test(first.trim())) return 'vtt';
  if (lines.some((l) => l.includes('-->'))) return 'srt';
  if (lines.some((l) => SBV_RE.test(l))) return 'sbv';
  throw new CaptionInputError(null, 'no cue timings were found: send an SRT, WebVTT or SubViewer (SBV) file');
}

interface RawCue {
  startMs: number;
  endMs: number;
  body: string[];
  settings: string;
  line: number;
}

function srtOrVtt(lines: string[], format: 'srt' | 'vtt', notes: Notes): RawCue[] {
  const timings: number[] = [];
  for (let i = 0; i < lines.length; i++) if (lines[i]!.includes('-->')) timings.push(i);
  if (timings.length > MAX_CUES) throw new CaptionInputError(null, `the file has ${timings.length.toLocaleString('en-GB')} cues; a track may hold at most ${MAX_CUES.toLocaleString('en-GB')}`);
  const blank = (i: number) => i < 0 || i >= lines.length || lines[i]!.trim() === '';
  const isNumber = (i: number) => !blank(i) && /^\s*\d+\s*$/.test(lines[i]!);
  // A cue's own header line above its timing: its number (SRT) or identifier (WebVTT).
  const header = (t: number) => (format === 'srt' ? isNumber(t - 1) : !blank(t - 1) && blank(t - 2) && t - 1 > 0);
  if (format === 'srt') {
    const firstCue = timings[0] ?? lines.length;
    for (let i = 0; i < firstCue - (header(firstCue) ? 1 : 0); i++) {
      if (!blank(i)) throw new CaptionInputError(i + 1, `"${lines[i]!.trim().slice(0, 40)}" is not part of a cue: a cue starts with its number or its timing line`);
    }
  }
  const cues: RawCue[] = [];
  for (const [k, t] of timings.entries()) {
    const m = TIMING_RE.exec(lines[t]!);
    if (!m) throw timingProblem(t + 1, lines[t]!);
    const startMs = toMs(t + 1, m[1], m[2]!, m[3]!, m[4]!);
    const endMs = toMs(t + 1, m[5], m[6]!, m[7]!, m[8]!);
    if (format === 'srt') {
      if (!isNumber(t - 1)) notes.add('cue numbers were missing; the cues are numbered in order');
      else if (Number(lines[t - 1]!.trim()) !== k + 1) notes.add('cue numbers were out of sequence; the cues are numbered in order');
    }
    const settings = format === 'vtt' ? vttSettings(m[9] ?? '', notes) : '';
    const next = timings[k + 1];
    let end = next ?? lines.length;
    if (next !== undefined && next - 1 > t && header(next)) end = next - 1;
    const body = lines.slice(t + 1, end);
    if (format === 'vtt') {
      // A NOTE, STYLE or REGION block after the cue ends it.
      const cut = body.findIndex((l, i) => (i === 0 || body[i - 1]!.trim() === '') && /^(NOTE|STYLE|REGION)(\s|$)/.test(l));
      if (cut >= 0) body.length = cut;
    }
    while (body.length && body[body.length - 1]!.trim() === '') body.pop();
    if (body.some((l) => l.trim() === '')) notes.add('blank lines inside a cue were removed');
    cues.push({ startMs, endMs, body, settings, line: t + 1 });
  }
  return cues;
}

function sbv(lines: string[], notes: Notes): RawCue[] {
  const cues: RawCue[] = [];
  let cur: RawCue | null = null;
  for (const [i, l] of lines.entries()) {
    const m = SBV_RE.exec(l);
    if (m) {
      if (cues.length >= MAX_CUES) throw new CaptionInputError(null, `the file has more than ${MAX_CUES.toLocaleString('en-GB')} cues; a track may hold at most that`);
      cur = { startMs: toMs(i + 1, m[1], m[2]!, m[3]!, m[4]!), endMs: toMs(i + 1, m[5], m[6]!, m[7]!, m[8]!), body: [], settings: '', line: i + 1 };
      cues.push(cur);
    } else if (l.trim() === '') {
      if (cur && cur.body.length) cur = null;
    } else if (cur) {
      cur.body.push(...l.split(/\[br\]/i));
    } else if (!cues.length || /^\s*\d+:\d/.test(l)) {
      throw cues.length ? timingProblem(i + 1, l) : new CaptionInputError(i + 1, `"${l.trim().slice(0, 40)}" is not part of a cue: a SubViewer cue starts with its timing line`);
    } else {
      notes.add('lines outside any cue were ignored');
    }
  }
  return cues;
}

/**
 * Reads a decoded caption file. `durationMs`, the film's length when known: a cue that starts at
 * or after it is refused; one that runs past it ends with the film.
 */
export function parseCaptions(input: string, durationMs: number | null): ParsedCaptions {
  const lines = normaliseLineBreaks(input.replace(/^\uFEFF/, '')).split('\n');
  const format = detect(lines);
  const notes: Notes = new Set();
  const raw = format === 'sbv' ? sbv(lines, notes) : srtOrVtt(lines, format, notes);
  const cues: Cue[] = [];
  let emptyCues = 0;
  for (const c of raw) {
    if (c.endMs < c.startMs) {
      throw new CaptionInputError(c.line, `the cue ends (${formatTime(c.endMs)}) before it starts (${formatTime(c.startMs)})`);
    }
    if (durationMs != null && c.startMs >= durationMs) {
      throw new CaptionInputError(c.line, `the cue starts at ${formatTime(c.startMs)}, after the film ends (${formatTime(durationMs)})`);
    }
    const clean = cleanCueText(c.body.join('\n'), c.line + 1, notes, c.settings);
    if (!clean || c.endMs === c.startMs) {
      emptyCues++;
      continue;
    }
    let endMs = c.endMs;
    if (durationMs != null && endMs > durationMs) {
      endMs = durationMs;
      notes.add('cues running past the end of the film end with it');
    }
    cues.push({ startMs: c.startMs, endMs, text: clean.text, settings: clean.settings, line: c.line });
  }
  if (emptyCues) notes.add(`${emptyCues} empty or zero-length cue${emptyCues === 1 ? ' was' : 's were'} dropped`);
  if (!cues.length) throw new CaptionInputError(null, 'the file has no cues with text');
  if (cues.some((c, i) => i > 0 && c.startMs < cues[i - 1]!.startMs)) {
    cues.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
    notes.add('cues out of order were put in order of their start');
  }
  checkOnScreen(cues, notes);
  return { format, cues, notes: [...notes] };
}

/** Overlapping cues are allowed (two speakers at once), up to MAX_ON_SCREEN at any moment. */
function checkOnScreen(cues: Cue[], notes: Notes): void {
  const ends: number[] = [];
  let overlaps = 0;
  for (const c of cues) {
    for (let i = ends.length - 1; i >= 0; i--) if (ends[i]! <= c.startMs) ends.splice(i, 1);
    if (ends.length) overlaps++;
    if (ends.length >= MAX_ON_SCREEN) {
      throw new CaptionInputError(c.line, `this cue would be the ${ends.length + 1}th on screen at once at ${formatTime(c.startMs)}; at most ${MAX_ON_SCREEN} cues may overlap`);
    }
    ends.push(c.endMs);
  }
  if (overlaps) notes.add(`${overlaps} cue${overlaps === 1 ? ' overlaps' : 's overlap'} the one before (shown together)`);
}
