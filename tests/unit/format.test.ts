// Issue 19 #17: one date, timestamp and stage format for admin and portal.
import { expect, test } from 'vitest';
import { formatDate, formatDateTime, formatTimestamp, stageLabel } from '../../src/shared/format.ts';

test.each([
  ['2026-11-22T10:00:00Z', '22 Nov 2026'],
  ['2026-06-30T23:30:00Z', '1 Jul 2026'], // UK summer time: already the next day in London
  ['2026-01-05T00:00:00Z', '5 Jan 2026'],
  ['not a date', 'Unknown'],
  ['', 'Unknown'],
])('formatDate(%s) = %s', (iso, expected) => {
  expect(formatDate(iso)).toBe(expected);
});

test('formatDateTime is the date plus a 24-hour UK time', () => {
  expect(formatDateTime('2026-11-22T14:05:00Z')).toBe('22 Nov 2026, 14:05');
});

test.each([
  [0, '00:00'],
  [1.9, '00:01'],
  [75, '01:15'],
  [3725, '1:02:05'],
  [-5, '00:00'],
  [Number.NaN, '00:00'],
])('formatTimestamp(%s) = %s', (s, expected) => {
  expect(formatTimestamp(s)).toBe(expected);
});

test.each([
  ['pre-production', 'Pre-production'],
  ['post-production', 'Post-production'],
  ['final', 'Final'],
  [null, 'Not specified'],
])('stageLabel(%s) = %s', (stage, expected) => {
  expect(stageLabel(stage)).toBe(expected);
});
