// The rules of names (issue 51, item 6; src/shared/schemas/text.ts), decided by Unicode property:
// no format or other default-ignorable character (tags, beam controls, interlinear annotations,
// zero-width space, Hangul fillers…), no Braille blank, nothing unassigned or private-use, and
// at least one letter or digit; what real names use (accents, every script, ZWJ emoji, ZWNJ
// spelling, variation selectors, the three tag-sequence flags) stays allowed. The same schema
// checks file names (src/server/media/file-name.ts); tests/api/text-rules.test.ts shows the
// endpoints refusing them.
import { describe, expect, test } from 'vitest';
import { nameText } from '../../src/shared/schemas/text.ts';
import { checkFileName } from '../../src/server/media/file-name.ts';

const name = nameText('Name', 200);
const problem = (value: string) => {
  const r = name.safeParse(value);
  return r.success ? null : r.error.issues[0]!.message;
};

const INVISIBLE = (found: string) => `Name must not contain invisible characters (found ${found})`;
const UNASSIGNED = (found: string) => `Name must not contain unassigned or private-use characters (found ${found})`;
const NO_LETTER = 'Name must contain a letter or a digit';

describe('refused', () => {
  test.each([
    // What the list let through (issue 51).
    ['a tag letter (text hidden after the name)', 'Eve\u{E0041}\u{E0042}', INVISIBLE('U+E0041')],
    ['the tag space', 'Eve\u{E0020}', INVISIBLE('U+E0020')],
    ['the cancel tag', 'Eve\u{E007F}', INVISIBLE('U+E007F')],
    ['a made-up tag "flag" (hidden text inside an emoji)', 'Eve \u{1F3F4}\u{E0068}\u{E0069}\u{E007F}', INVISIBLE('U+E0068')],
    ['a musical begin-beam control (U+1D173)', 'Ev\u{1D173}e', INVISIBLE('U+1D173')],
    ['a musical end-phrase control (U+1D17A)', 'Eve\u{1D17A}', INVISIBLE('U+1D17A')],
    ['an interlinear annotation anchor (U+FFF9)', 'Eve\uFFF9', INVISIBLE('U+FFF9')],
    ['an interlinear annotation terminator (U+FFFB)', 'Eve\uFFFB', INVISIBLE('U+FFFB')],
    ['a Braille blank after the name', 'Eve\u2800', INVISIBLE('U+2800')],
    ['only Braille blanks', '\u2800\u2800\u2800', INVISIBLE('U+2800')],
    ['a shorthand format control (U+1BCA0)', 'Eve\u{1BCA0}', INVISIBLE('U+1BCA0')],
    ['an Egyptian hieroglyph joiner (U+13430)', 'Eve\u{13430}', INVISIBLE('U+13430')],
    ['a deprecated format character (U+206A)', 'Eve\u206A', INVISIBLE('U+206A')],
    ['an Arabic number sign (U+0600)', '\u0600Eve', INVISIBLE('U+0600')],
    // What the list caught, still caught.
    ['a zero-width space', 'Ev\u200Be', INVISIBLE('U+200B')],
    ['a word joiner', 'Eve\u2060', INVISIBLE('U+2060')],
    ['an invisible plus (U+2064)', 'Eve\u2064', INVISIBLE('U+2064')],
    ['a byte-order mark inside', 'Ev\uFEFFe', INVISIBLE('U+FEFF')],
    ['a soft hyphen', 'Ev\u00ADe', INVISIBLE('U+00AD')],
    ['a combining grapheme joiner', 'Ev\u034Fe', INVISIBLE('U+034F')],
    ['a Hangul filler', '\u3164', INVISIBLE('U+3164')],
    ['a halfwidth Hangul filler', 'Eve\uFFA0', INVISIBLE('U+FFA0')],
    ['a Hangul choseong filler', '\u115FEve', INVISIBLE('U+115F')],
    ['a Khmer inherent vowel', 'Eve\u17B4', INVISIBLE('U+17B4')],
    ['a Mongolian vowel separator', 'Eve\u180E', INVISIBLE('U+180E')],
    // Nobody else sees what these show.
    ['a private-use character', 'Eve\uE000', UNASSIGNED('U+E000')],
    ['a supplementary private-use character', 'Eve\u{F0000}', UNASSIGNED('U+F0000')],
    ['an unassigned code point', 'Ev\u0378e', UNASSIGNED('U+0378')],
    ['a noncharacter (U+FFFF)', 'Eve\uFFFF', UNASSIGNED('U+FFFF')],
    ['a noncharacter (U+FDD0)', 'Eve\uFDD0', UNASSIGNED('U+FDD0')],
    ['a lone surrogate', 'Eve\uD800', UNASSIGNED('U+D800')],
    // Nothing to tell it by.
    ['only dots', '...', NO_LETTER],
    ['only fullwidth dots and a slash', '．．／', NO_LETTER],
    ['only an emoji', '\u{1F3AC}', NO_LETTER],
    ['only combining marks', '\u0301\u0301', NO_LETTER],
    ['only a flag', '\u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}', NO_LETTER],
  ])('%s', (_what, value, message) => {
    expect(problem(value)).toBe(message);
  });
});

describe('kept as typed', () => {
  test.each([
    ['plain Latin', 'Eve Adams'],
    ['accents and an apostrophe', 'Zoë O’Brien-Łukasiewicz'],
    ['Greek, Cyrillic, CJK', 'Δημήτρης Иван 山田太郎'],
    ['Arabic', 'محمد'],
    ['Persian with ZWNJ', '\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645'],
    ['Devanagari with a virama and ZWJ', '\u0915\u094D\u200D\u0937'],
    ['an emoji sequence with ZWJ', 'Eve \u{1F469}\u200D\u{1F4BB}'],
    ['an emoji with a variation selector', 'Sam \u270C\uFE0F'],
    ['an ideographic variation selector', '\u845B\u{E0100}飾'],
    ['a Mongolian free variation selector', '\u1820\u180B'],
    ['the Welsh flag', 'Dafydd \u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}'],
    ['the Scottish flag', 'Morag \u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}'],
    ['digits only', '42'],
    ['fullwidth letters', 'Ｆｉｌｍｓ'],
    ['an empty optional name', ''],
  ])('%s', (_what, value) => {
    expect(problem(value)).toBeNull();
  });
});

test.each([
  ['a tag character', 'clip\u{E0041}.mp4', 'File name must not contain invisible characters (found U+E0041)'],
  ['an interlinear annotation', 'clip\uFFF9.mp4', 'File name must not contain invisible characters (found U+FFF9)'],
  ['a private-use character', 'clip\uE000.mp4', 'File name must not contain unassigned or private-use characters (found U+E000)'],
  ['no letter or digit', '_.-', 'File name must contain a letter or a digit'],
])('a file name with %s is refused', (_what, raw, message) => {
  expect(checkFileName(raw)).toEqual({ problem: message });
});

test('an ordinary file name is kept, folders dropped', () => {
  expect(checkFileName('C:\\Footage\\Café reel – final (2).mp4')).toEqual({ name: 'Café reel – final (2).mp4' });
});
