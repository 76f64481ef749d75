// The digest slot (src/server/notifications/slot.ts): one per UK day from the digest hour,
// across the clock changes; or one per interval.
import { describe, expect, test } from 'vitest';
import { slotAt } from '../../src/server/notifications/slot.ts';

const at = (iso: string) => Date.parse(iso);

describe('daily slots at 08:00 UK time', () => {
  test.each([
    ['winter, after the hour', '2026-01-15T08:00:00Z', 'day:2026-01-15'],
    ['winter, just before the hour', '2026-01-15T07:59:59Z', 'day:2026-01-14'],
    ['summer: 08:00 BST is 07:00 UTC', '2026-07-15T07:00:00Z', 'day:2026-07-15'],
    ['summer, just before 08:00 BST', '2026-07-15T06:59:59Z', 'day:2026-07-14'],
    ['the day the clocks go forward, 08:00 BST', '2026-03-29T07:00:00Z', 'day:2026-03-29'],
    ['the day the clocks go back, 07:59 GMT', '2026-10-25T07:59:00Z', 'day:2026-10-24'],
    ['the day the clocks go back, 08:00 GMT', '2026-10-25T08:00:00Z', 'day:2026-10-25'],
    ['new year, before the hour', '2027-01-01T03:00:00Z', 'day:2026-12-31'],
  ])('%s (%s) is %s', (_name, iso, slot) => {
    expect(slotAt(at(iso), 8)).toBe(slot);
  });

  test('every moment of a day from the hour to the next day\'s hour is one slot', () => {
    const start = at('2026-05-10T07:00:00Z'); // 08:00 BST
    const slots = new Set<string>();
    for (let t = start; t < start + 24 * 60 * 60 * 1000; t += 15 * 60 * 1000) slots.add(slotAt(t, 8));
    expect([...slots]).toEqual(['day:2026-05-10']);
    expect(slotAt(start + 24 * 60 * 60 * 1000, 8)).toBe('day:2026-05-11');
  });

  test('hour 0 starts the slot at UK midnight', () => {
    expect(slotAt(at('2026-07-14T23:00:00Z'), 0)).toBe('day:2026-07-15');
    expect(slotAt(at('2026-07-14T22:59:59Z'), 0)).toBe('day:2026-07-14');
  });
});

test('an interval gives one slot per interval, aligned to the epoch', () => {
  expect(slotAt(3999, 8, 4000)).toBe('every-4000:0');
  expect(slotAt(4000, 8, 4000)).toBe('every-4000:1');
  expect(slotAt(at('2026-07-15T06:00:00Z'), 8, 4000)).not.toMatch(/^day:/);
});

describe('another studio time zone (STUDIO_TIME_ZONE)', () => {
  test.each([
    ['08:00 EST is 13:00 UTC', '2026-01-15T13:00:00Z', 'day:2026-01-15'],
    ['07:59 EST is still yesterday', '2026-01-15T12:59:00Z', 'day:2026-01-14'],
    ['the day New York’s clocks go forward (8 March 2026), 08:00 EDT', '2026-03-08T12:00:00Z', 'day:2026-03-08'],
    ['the day they go back (1 November 2026), 07:59 EST', '2026-11-01T12:59:00Z', 'day:2026-10-31'],
  ])('%s (%s) is %s', (_name, iso, slot) => {
    expect(slotAt(at(iso), 8, undefined, 'America/New_York')).toBe(slot);
  });
});
