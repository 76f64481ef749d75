// People's text (names, titles, comments) inside the plain-text emails the app writes. The
// payload rules refuse control characters and line breaks in one-line fields, but rows stored
// before those rules may still hold them, so every email makes the text safe itself: one-line
// values stay on one line (no added header, no fake "Bcc:" line) and multi-line text is quoted,
// so a typed "Open it: <link>" can never pass for a line of ours.
import { FORBIDDEN_CHARACTERS, normaliseLineBreaks } from '../../shared/schemas/text.ts';

/** On one line: line breaks, tabs and runs of spaces become one space, controls and bidi characters go; cut to `max` with "…". */
export function oneLine(text: string, max = Infinity): string {
  const line = text.replace(FORBIDDEN_CHARACTERS, ' ').replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Multi-line text as a quote: every line starts with "> " (the mail convention for someone else's words). */
export function quoted(text: string): string {
  return normaliseLineBreaks(text.replace(FORBIDDEN_CHARACTERS, ''))
    .trim()
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}
