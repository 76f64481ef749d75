// ACCEL_REDIRECT (issue 33): off by default, `true` names the shipped /_protected/ location,
// anything else must be a plain path starting and ending with a slash.
import { expect, test } from 'vitest';
import { configSchema } from '../../src/server/config.ts';

const parse = (v: string | undefined) => configSchema.shape.ACCEL_REDIRECT.safeParse(v);

test.each([
  [undefined, null],
  ['', null],
  ['false', null],
  ['off', null],
  ['true', '/_protected/'],
  ['on', '/_protected/'],
  ['/internal/media/', '/internal/media/'],
])('%j → %j', (value, expected) => {
  const r = parse(value);
  expect(r.success).toBe(true);
  expect(r.data).toBe(expected);
});

test.each(['/_protected', '_protected/', '/../x/', '/a b/', 'http://x/', '/a?b/'])('%j is refused', (value) => {
  expect(parse(value).success).toBe(false);
});
