// The rules for free text in every payload (issue 31, item 9), in one place: names, titles,
// comments, notes, tags, settings texts. Control characters (a NUL name read back as "" and so
// passed as anonymous; CR/LF wrote fake lines into staff emails) and the invisible bidi
// controls (which make text display in another order than it is stored) are refused with a
// 400 naming the field, rather than silently dropped, so what is stored is what was sent.
import { z } from '../zod.ts';

/** C0 controls except tab, LF and CR (judged by the line rules below), DEL, and the C1 controls. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;
/** Embeddings and overrides, isolates, and the direction marks LRM, RLM and ALM. */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
/** Every character no stored text may hold, for code that must clean text stored before these rules. */
export const FORBIDDEN_CHARACTERS = new RegExp(`${CONTROL.source}|${BIDI.source}`, 'gu');
/**
 * What a name may not hold, by Unicode property rather than a list (issue 51; a list missed the
 * tag characters, the musical beam controls and the interlinear annotations): format characters
 * (zero-width space, word joiner, soft hyphen, byte-order mark, tags…) and every other default
 * ignorable code point (the Hangul fillers, the combining grapheme joiner, the Khmer inherent
 * vowels), all of which draw nothing, and the Braille blank, which draws a blank. In a name they
 * make one name differ from another that looks the same, hide text, or look blank.
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u;
/**
 * Of those, what names need: ZWJ and ZWNJ (emoji sequences, Persian and Indic spelling), the
 * variation selectors, and the three flags written with tag characters (England, Scotland,
 * Wales), whole. The `u` flag, not `v` (set subtraction, RGI_Emoji_Tag_Sequence): this schema
 * runs in the islands too, and a `v` literal is a syntax error that takes the whole module down
 * in a browser without it (Safari before 17).
 */
const KEPT_INVISIBLE = /[\u200C\u200D\p{Variation_Selector}]|\u{1F3F4}\u{E0067}\u{E0062}(?:\u{E0065}\u{E006E}\u{E0067}|\u{E0073}\u{E0063}\u{E0074}|\u{E0077}\u{E006C}\u{E0073})\u{E007F}/gu;
/** Code points no font agrees on: unassigned (noncharacters too), private use, a lone surrogate. */
const UNASSIGNED = /[\p{Cn}\p{Co}\p{Cs}]/u;
/** A name shows at least one letter or digit of some script (not only dots, marks or emoji). */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** Anything that starts a new line (NEL, U+0085, is already a C1 control). */
const LINE_BREAK = /[\n\r\u2028\u2029]/u;

const codePoint = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * What is wrong with `value` as text, or null. Multi-line text may hold line breaks and tabs
 * (after normaliseLineBreaks); single-line text neither.
 */
export function textProblem(value: string, multiline: boolean, name = false): string | null {
  if (!multiline) {
    if (LINE_BREAK.test(value)) return 'must be on one line';
    if (value.includes('\t')) return 'must not contain tabs';
  }
  const control = CONTROL.exec(value);
  if (control) return `must not contain control characters (found ${codePoint(control[0])})`;
  const bidi = BIDI.exec(value);
  if (bidi) return `must not contain text-direction control characters (found ${codePoint(bidi[0])})`;
  return name ? nameProblem(value) : null;
}

/** What is wrong with `value` as a name beyond the rules of all text, or null. */
function nameProblem(value: string): string | null {
  const unseen = unseenProblem(value);
  if (unseen) return unseen;
  if (value !== '' && !LETTER_OR_DIGIT.test(value)) return 'must contain a letter or a digit';
  return null;
}

/**
 * Invisible, unassigned or private-use characters (the rules names follow): captions too, which
 * are shown to other people on their own (issue 54), may hold none.
 */
export function unseenProblem(value: string): string | null {
  const invisible = INVISIBLE.exec(value.replace(KEPT_INVISIBLE, ''));
  if (invisible) return `must not contain invisible characters (found ${codePoint(invisible[0])})`;
  const unassigned = UNASSIGNED.exec(value);
  if (unassigned) return `must not contain unassigned or private-use characters (found ${codePoint(unassigned[0])})`;
  return null;
}

/** CR LF, lone CR and the Unicode line and paragraph separators all become LF. */
export const normaliseLineBreaks = (value: string) => value.replace(/\r\n?|[\u2028\u2029]/gu, '\n');

interface TextOptions {
  /** At least one character after trimming ("<label> is required"). */
  required?: boolean;
}

function textSchema(label: string, max: number, multiline: boolean, { required = false }: TextOptions, name = false) {
  let s = z.string({ error: required ? `${label} is required` : `${label} must be text` });
  if (multiline) s = s.overwrite(normaliseLineBreaks);
  s = s.trim();
  if (required) s = s.min(1, `${label} is required`);
  return s.max(max, `${label} must be at most ${max} characters`).superRefine((value, ctx) => {
    const problem = textProblem(value, multiline, name);
    if (problem) ctx.addIssue({ code: 'custom', message: `${label} ${problem}` });
  });
}

/** A trimmed one-line text (names, titles, tags, settings fields). Chain .optional(), .default(), .regex() as usual. */
export const plainText = (label: string, max: number, options: TextOptions = {}) => textSchema(label, max, false, options);

/**
 * A one-line name people tell apart by sight (a person's, a client's, a role's, a link's, a
 * gallery's, a file's): the rules of plainText, no invisible, unassigned or private-use
 * characters, so "Eve" and "Eve" + U+200B cannot both pass, and at least one letter or digit.
 */
export const nameText = (label: string, max: number, options: TextOptions = {}) => textSchema(label, max, false, options, true);

/** A trimmed text that may span lines (comments, notes, descriptions): line breaks become LF, tabs stay. */
export const multilineText = (label: string, max: number, options: TextOptions = {}) => textSchema(label, max, true, options);
