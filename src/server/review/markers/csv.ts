// Plain CSV of a version's notes (issue 30), RFC 4180: comma-separated, CRLF line ends, a field
// in double quotes when it holds a comma, a quote or a line break, quotes doubled. UTF-8 with a
// byte-order mark so Excel reads accents and non-Latin text. A field starting with = + - @ or a
// tab is prefixed with ' so a spreadsheet shows it as text instead of running it as a formula
// (text comes from clients and link visitors).
import { place, stateLabel } from './common.ts';
import { framesToLabel } from './timecode.ts';
import type { MarkerNote, MarkerVersion } from './types.ts';

export const CSV_HEADER = ['#', 'Timecode in', 'Timecode out', 'Duration (frames)', 'Start (ms)', 'End (ms)', 'Author', 'Source', 'State', 'Internal', 'Note', 'Created'];

/** One RFC 4180 field; `text` fields (written by people) get the formula guard. */
export function csvField(value: string, text = false): string {
  let s = value;
  if (text && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function writeCsv(version: MarkerVersion, notes: readonly MarkerNote[]): string {
  const { rate, startFrames, markers } = place(version, notes);
  const rows = [CSV_HEADER.map((h) => csvField(h))];
  markers.forEach((m, i) => {
    rows.push([
      String(i + 1),
      framesToLabel(startFrames + m.frame, rate),
      framesToLabel(startFrames + m.frame + m.frames, rate),
      String(m.frames),
      String(m.note.timestampMs),
      m.note.endMs != null ? String(m.note.endMs) : '',
      csvField(m.note.author, true),
      m.note.source,
      stateLabel(m.note),
      m.note.internal ? 'yes' : 'no',
      csvField(m.note.text.replace(/\r\n?|\n/g, '\r\n'), true),
      m.note.createdAt,
    ]);
  });
  return '\ufeff' + rows.map((r) => r.join(',')).join('\r\n') + '\r\n';
}
