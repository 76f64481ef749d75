// Role-name comparison (issue 31, item 10): NFKC case fold plus Unicode's confusable skeleton.
import { expect, test } from 'vitest';
import { looksTheSame } from '../../src/server/accounts/name-key.ts';

test.each([
  ['Admin', 'ADMIN'],
  ['Admin', 'ADM\u0130N'],
  ['Admin', 'Admi\u0301n'],
  ['Admin', 'Adm\u00EDn'],
  ['Admin', '\u13AADMIN'],
  ['Admin', '\uA4EEdmin'],
  ['Admin', 'Adrnin'],
  ['Admin', 'Ad\u200Bmin'],
  ['Staff', 'Staff\uFE0F'],
  ['Staff', '\uA4E2taff'],
  // Cyrillic capital Т maps to T, its small form to small-capital ᴛ: the mapped-first key catches it.
  ['Staff', '\u0405\u0422aff'],
  ['Editors', 'EDITORS'],
])('%j and %j look the same', (a, b) => {
  expect(looksTheSame(a, b)).toBe(true);
  expect(looksTheSame(b, a)).toBe(true);
});

test.each([
  ['Admin', 'Admins'],
  ['Admin', '\u00C1dmin'],
  ['Admin', 'Adm1n'],
  ['Staff', 'Stuff'],
  ['Editors', 'Colourists'],
])('%j and %j are different names', (a, b) => {
  expect(looksTheSame(a, b)).toBe(false);
});
