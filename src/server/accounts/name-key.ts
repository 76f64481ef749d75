// A comparison key for names people read (role names): two names with the same key look the
// same on screen, so they must not both exist. The key is Unicode's own answer, not a table of
// ours: NFKC with case folding and default-ignorable characters removed (NFKC_Casefold: fullwidth
// "Ａｄｍｉｎ", ligatures, "Staff" + a variation selector, zero-width spaces), then the confusable
// skeleton of UTS #39 from the confusables.txt data that the unhomoglyph package ships (Cyrillic,
// Greek, Cherokee, Lisu... look-alikes, "rn" for "m"). The key is never shown.
import unhomoglyph from 'unhomoglyph';

/** Characters that draw nothing (zero-width spaces, joiners, variation selectors, bidi marks). */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
/**
 * Cherokee is the one script whose Unicode case folding goes to upper case (CaseFolding.txt,
 * for stability), while toLowerCase goes the other way; the confusable data maps the capitals.
 */
const CHEROKEE_SMALL = /[\u{AB70}-\u{ABBF}\u{13F8}-\u{13FD}]/gu;
/**
 * Marks on a soft-dotted letter (i, j and their look-alikes) take the place of its dot, so
 * "í", "i" + U+0301 and the "i̇" that lower-casing "İ" gives all read as "i" (UTS #39 §5.4 warns
 * of base + mark sequences that look like the base alone).
 */
const MARKS_ON_SOFT_DOTTED = /(\p{Soft_Dotted})\p{Mn}+/gu;

function caseFold(s: string): string {
  return s.toLowerCase().replace(CHEROKEE_SMALL, (c) => c.toUpperCase());
}

/** NFKC with default-ignorable characters removed. */
const nfkc = (s: string) => s.normalize('NFKC').replace(IGNORABLE, '');

/** NFKC_Casefold, as far as JavaScript offers it. */
const nfkcCaseFold = (s: string) => nfkc(caseFold(nfkc(s)));

/** The UTS #39 skeleton: NFD, each character to its confusable prototype, NFD again. */
function skeleton(s: string): string {
  return unhomoglyph(s.normalize('NFD').replace(IGNORABLE, '')).normalize('NFD').replace(MARKS_ON_SOFT_DOTTED, '$1');
}

const tidy = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * The skeleton is case-sensitive, so a name gets two keys: case folded before the confusable
 * mapping (catches "ᎪDMIN", "ꓮdmin"; folded and mapped twice, as some prototypes are capitals:
 * Lisu "ꓢ" → "S"), and after it (catches capitals whose small forms map elsewhere: Cyrillic
 * "Т" → "T", but "т" → small-capital "ᴛ"). Names clash when either key is equal.
 */
export function nameKeys(name: string): [foldedFirst: string, mappedFirst: string] {
  return [tidy(skeleton(nfkcCaseFold(skeleton(nfkcCaseFold(name))))), tidy(skeleton(nfkcCaseFold(skeleton(nfkc(name)))))];
}

/** Whether two names read the same on screen (see nameKeys). */
export function looksTheSame(a: string, b: string): boolean {
  const [a1, a2] = nameKeys(a);
  const [b1, b2] = nameKeys(b);
  return a1 === b1 || a2 === b2;
}
