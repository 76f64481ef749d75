// A hit's snippet as parts (issue 54, item 5). FTS5's snippet() marks the matched words with
// control characters no cue or note keeps (the free-text rules take them out); the snippet is
// split on them into parts the screens render as text, so nothing of it is ever HTML.
import type { SnippetPart } from '../../shared/schemas/search.ts';

export const OPEN = '\u0002';
export const CLOSE = '\u0003';

export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  for (const piece of snippet.split(OPEN)) {
    const [hit, rest] = piece.includes(CLOSE) ? (piece.split(CLOSE, 2) as [string, string]) : [null, piece];
    if (hit) parts.push({ text: hit, hit: true });
    if (rest) parts.push({ text: rest.replaceAll(CLOSE, ''), hit: false });
  }
  // Neighbouring parts of the same kind read as one.
  return parts.reduce<SnippetPart[]>((out, p) => {
    const last = out.at(-1);
    if (last && last.hit === p.hit) last.text += p.text;
    else out.push({ ...p });
    return out;
  }, []);
}
