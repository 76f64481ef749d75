// The order of a search's hits (issue 54, the search budget). FTS5's bm25() weighs each word by
// how many rows of the whole index hold it, and counts them by reading the word's whole list
// before it scores a single row: for a word in a third of a million cues that count was most of
// the search (129 ms on the file, 206 ms on sqld at p95). The search ranks only the newest
// RANKED matches, and every one of them holds every word asked for, so the words' weights would
// move little among them. They are scored here instead, from their text, by BM25's other two
// parts: how often a row holds the words (with diminishing returns) and how long the row is.

const K1 = 1.2;
const B = 0.75;

/** The tokens of FTS5's unicode61 tokenizer with remove_diacritics: letters and digits, case and accents folded. */
export function tokens(s: string): string[] {
  return s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A word or phrase as tokens; `prefix`: its last token also matches the tokens it begins. */
export interface RankTerm {
  tokens: string[];
  prefix: boolean;
}

export function rankTerms(terms: { text: string; prefix: boolean }[]): RankTerm[] {
  return terms.map((t) => ({ tokens: tokens(t.text), prefix: t.prefix })).filter((t) => t.tokens.length > 0);
}

/** How many times `doc` holds `term`, its tokens in order. */
function occurrences(doc: string[], term: RankTerm): number {
  const n = term.tokens.length;
  let found = 0;
  for (let i = 0; i + n <= doc.length; i++) {
    let all = true;
    for (let j = 0; j < n && all; j++) {
      const want = term.tokens[j]!;
      const have = doc[i + j]!;
      all = term.prefix && j === n - 1 ? have.startsWith(want) : have === want;
    }
    if (all) found++;
  }
  return found;
}

/** `rows` best first: BM25 without the words' weights; equal scores oldest row first. */
export function ranked<T extends { id: number; text: string }>(rows: T[], terms: RankTerm[]): T[] {
  if (!rows.length) return [];
  const docs = rows.map((r) => tokens(r.text));
  const average = docs.reduce((sum, d) => sum + d.length, 0) / docs.length || 1;
  const score = docs.map((doc) => {
    const norm = K1 * (1 - B + (B * doc.length) / average);
    return terms.reduce((sum, term) => {
      const f = occurrences(doc, term);
      return sum + (f * (K1 + 1)) / (f + norm);
    }, 0);
  });
  return rows
    .map((row, i) => ({ row, score: score[i]! }))
    .sort((a, b) => b.score - a.score || a.row.id - b.row.id)
    .map((x) => x.row);
}
