// The note forms' @mentions (issue 57): which "@start" is being typed, and who is still named.
import { describe, expect, test } from 'vitest';
import { mentionQuery, mentionsIn } from '../../src/islands/rounds/Mentions.tsx';
import type { Mentionable } from '../../src/shared/schemas/mentions.ts';

describe('mentionQuery', () => {
  test.each([
    ['@', ''],
    ['Logo @le', 'le'],
    ['Logo\n@Lena', 'Lena'],
    ['email@studio', null], // an address, not a mention
    ['@Lena done', null], // finished: a space after it
    ['no mention', null],
    ['two @@', null],
  ])('%j → %j', (text, expected) => {
    expect(mentionQuery(text)).toBe(expected);
  });
});

describe('mentionsIn', () => {
  const lena: Mentionable = { ref: { kind: 'staff', userId: 'u1' }, name: 'Lena Lawyer', group: 'Studio' };
  const max: Mentionable = { ref: { kind: 'client', clientUserId: 7 }, name: 'max.client', group: 'Harbour' };
  test('only those whose @Name is still in the text are sent', () => {
    expect(mentionsIn('@Lena Lawyer and @max.client look', [lena, max])).toEqual([lena.ref, max.ref]);
    expect(mentionsIn('@Lena Lawyer only', [lena, max])).toEqual([lena.ref]);
    expect(mentionsIn('nobody now', [lena, max])).toEqual([]);
  });
});
