// What a person types into a search box, as an FTS5 query that can only mean "these words":
// every word and "quoted phrase" becomes a quoted FTS5 string (so AND, OR, NEAR, *, ^, column
// filters and stray quotes are plain text), all of them required; the last word, when the
// input does not end in a space or a closing quote, also matches words it begins (as you type).

/** At most this many words and phrases are kept (a search is for finding, not for essays). */
export const MAX_TERMS = 12;

/** One required word or phrase; `prefix`: its last word also matches words it begins. */
export interface QueryTerm {
  text: string;
  prefix: boolean;
}

const quoted = (s: string) => `"${s.replaceAll('"', '""')}"`;

/** Tokens the FTS5 unicode61 tokenizer would find in `s`: letters, digits and marks. */
const hasWord = (s: string) => /[\p{L}\p{N}]/u.test(s);

/** The words and phrases of `input`, in order; empty when it holds no word to look for. */
export function queryTerms(input: string): QueryTerm[] {
  const text = input.normalize('NFKC');
  const terms: QueryTerm[] = [];
  const re = /"([^"]*)"?|(\S+)/g;
  let m: RegExpExecArray | null;
  let lastBare: { index: number; word: string } | null = null;
  while ((m = re.exec(text)) && terms.length < MAX_TERMS) {
    const phrase = m[1];
    const word = m[2];
    if (phrase !== undefined) {
      if (hasWord(phrase)) terms.push({ text: phrase.trim(), prefix: false });
      lastBare = null;
    } else if (word !== undefined && hasWord(word)) {
      terms.push({ text: word, prefix: false });
      lastBare = { index: terms.length - 1, word };
    }
  }
  // "As you type": the last word also matches longer ones, unless the person finished it.
  if (lastBare && lastBare.index === terms.length - 1 && !/\s$/.test(text) && lastBare.word.length >= 2) terms[lastBare.index]!.prefix = true;
  return terms;
}

/** The FTS5 MATCH expression for `terms`, or null when there are none. */
export function matchOf(terms: QueryTerm[]): string | null {
  return terms.length ? terms.map((t) => quoted(t.text) + (t.prefix ? '*' : '')).join(' ') : null;
}

/** The FTS5 MATCH expression for `input`, or null when it holds no word to look for. */
export function ftsMatch(input: string): string | null {
  return matchOf(queryTerms(input));
}
