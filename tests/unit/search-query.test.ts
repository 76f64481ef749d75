// What a search box's text becomes as an FTS5 query (src/server/search/fts-query.ts), and how a
// snippet's markers become parts (src/server/search/query.ts).
import { describe, expect, test } from 'vitest';
import { MAX_TERMS, ftsMatch } from '../../src/server/search/fts-query.ts';
import { CLOSE, OPEN, snippetParts } from '../../src/server/search/snippet.ts';

describe('ftsMatch', () => {
  test.each([
    ['cafe', '"cafe"*'],
    ['cafe ', '"cafe"'],
    ['café au lait', '"café" "au" "lait"*'],
    ['"au lait"', '"au lait"'],
    ['"au lait" phare', '"au lait" "phare"*'],
    ['phare "au lait"', '"phare" "au lait"'],
    ['"unclosed phrase', '"unclosed phrase"'],
    ['OR', '"OR"*'],
    ['NEAR(a b)', '"NEAR(a" "b)"*'],
    ['text:cafe', '"text:cafe"*'],
    ['caf"e', '"caf""e"*'],
    ['a', '"a"'],
    ['x -y', '"x" "-y"*'],
  ])('%j → %j', (input, want) => {
    expect(ftsMatch(input)).toBe(want);
  });

  test.each([[''], ['   '], ['""'], ['* ^ ()'], ['" "']])('%j holds no word: null', (input) => {
    expect(ftsMatch(input)).toBeNull();
  });

  test(`at most ${MAX_TERMS} terms are kept`, () => {
    const many = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    expect(ftsMatch(many)!.split(' ')).toHaveLength(MAX_TERMS);
  });
});

describe('snippetParts', () => {
  test.each([
    ['plain', [{ text: 'plain', hit: false }]],
    [`Un ${OPEN}café${CLOSE} au lait`, [{ text: 'Un ', hit: false }, { text: 'café', hit: true }, { text: ' au lait', hit: false }]],
    [`${OPEN}a${CLOSE}${OPEN}b${CLOSE} c`, [{ text: 'ab', hit: true }, { text: ' c', hit: false }]],
    [`…${OPEN}end${CLOSE}`, [{ text: '…', hit: false }, { text: 'end', hit: true }]],
    ['<b>not html</b>', [{ text: '<b>not html</b>', hit: false }]],
  ])('%j', (snippet, want) => {
    expect(snippetParts(snippet)).toEqual(want);
  });
});
