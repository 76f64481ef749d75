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
 * Characters that draw nothing and that no script needs in a name: the soft hyphen, the
 * combining grapheme joiner, the Hangul fillers, the Khmer inherent vowels, the Mongolian vowel
 * separator, the zero-width space, the word joiner and invisible operators, the byte-order mark.
 * In a name they make one name differ from another that looks the same, or look blank. ZWJ and
 * ZWNJ (emoji sequences, Persian and Indic spelling) and the variation selectors stay allowed.
 */
const INVISIBLE = /[\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180E\u200B\u2060-\u2064\u3164\uFEFF\uFFA0]/u;
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
  const invisible = name ? INVISIBLE.exec(value) : null;
  if (invisible) return `must not contain invisible characters (found ${codePoint(invisible[0])})`;
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
 * A one-line name people tell apart by sight (a person's, a client's, a link's, a file's): the
 * rules of plainText, and no invisible characters, so "Eve" and "Eve" + U+200B cannot both pass.
 */
export const nameText = (label: string, max: number, options: TextOptions = {}) => textSchema(label, max, false, options, true);

/** A trimmed text that may span lines (comments, notes, descriptions): line breaks become LF, tabs stay. */
export const multilineText = (label: string, max: number, options: TextOptions = {}) => textSchema(label, max, true, options);
