// DaVinci Resolve's marker EDL (issue 30): a CMX 3600 list with one event per marker and the
// marker on the comment line below it, as Resolve writes it with Timelines > Export > Timeline
// Markers to EDL and reads it with Import > Timeline Markers from EDL:
//
//   001  001      V     C        01:00:18:06 01:00:18:07 01:00:18:06 01:00:18:07  
//   Ana Costa · Open |C:ResolveColorBlue |M:Logo too early |D:1
//
// Resolve takes the text before the first `|` as the marker's note, `|M:` as its name, `|C:` its
// colour and `|D:` its duration in frames. Open notes are blue, resolved ones green. An EDL is
// line-based: line breaks in a note become " / ", tabs and other control characters spaces, and
// `|` (the field separator) becomes `/`; UTF-8 is kept (Resolve reads it).
import { byLine, place } from './common.ts';
import { framesToLabel } from './timecode.ts';
import type { MarkerNote, MarkerVersion } from './types.ts';

export const OPEN_COLOUR = 'ResolveColorBlue';
export const RESOLVED_COLOUR = 'ResolveColorGreen';

/** One line of EDL text: no line breaks, no control characters, no `|`. */
export function edlText(text: string): string {
  return text
    .replace(/\r\n?|\n|\u2028|\u2029/g, ' / ')
    .replace(/[\p{Cc}]/gu, ' ')
    .replace(/\|/g, '/')
    .replace(/ {2,}/g, ' ')
    .trim();
}

export function writeEdl(version: MarkerVersion, notes: readonly MarkerNote[]): string {
  const { rate, startFrames, markers } = place(version, notes);
  const lines = [`TITLE: ${edlText(`${version.title} v${version.versionNumber} notes`)}`, `FCM: ${rate.drop ? 'DROP FRAME' : 'NON-DROP FRAME'}`, ''];
  markers.forEach((m, i) => {
    const tcIn = framesToLabel(startFrames + m.frame, rate);
    const tcOut = framesToLabel(startFrames + m.frame + m.frames, rate);
    lines.push(`${String(i + 1).padStart(3, '0')}  001      V     C        ${tcIn} ${tcOut} ${tcIn} ${tcOut}  `);
    const colour = m.note.resolved ? RESOLVED_COLOUR : OPEN_COLOUR;
    lines.push(`${edlText(byLine(m.note))} |C:${colour} |M:${edlText(m.note.text)} |D:${m.frames}`);
    lines.push('');
  });
  return lines.join('\n') + (markers.length ? '' : '\n');
}
