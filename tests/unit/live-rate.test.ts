// The token bucket of live session messages (src/server/live/rate.ts), on a clock the test
// holds: a burst of twice the rate, then one message per 1/rate seconds, keys apart.
import { expect, test } from 'vitest';
import { spend, TOO_FAST } from '../../src/server/live/rate.ts';

const refused = (key: string, rate: number, now: number) => {
  try {
    spend(key, rate, now);
    return false;
  } catch (e) {
    expect((e as { status: number }).status).toBe(429);
    expect((e as Error).message).toBe(TOO_FAST);
    return true;
  }
};

test('a burst of twice the rate passes, the next message is refused, one more passes each 1/rate s', () => {
  const t = 1_000_000;
  for (let i = 0; i < 10; i++) expect(refused('bucket-a', 5, t), `message ${i + 1} of the burst`).toBe(false);
  expect(refused('bucket-a', 5, t)).toBe(true);
  expect(refused('bucket-a', 5, t + 100)).toBe(true);
  expect(refused('bucket-a', 5, t + 200)).toBe(false);
  expect(refused('bucket-a', 5, t + 200)).toBe(true);
  // Another key has its own bucket; a long pause fills one back to the burst, no more.
  expect(refused('bucket-b', 5, t + 200)).toBe(false);
  for (let i = 0; i < 10; i++) expect(refused('bucket-a', 5, t + 60_000)).toBe(false);
  expect(refused('bucket-a', 5, t + 60_000)).toBe(true);
});
