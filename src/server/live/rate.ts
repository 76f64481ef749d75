// Messages per second a live session participant may send (LIVE_EVENTS_PER_SECOND, a burst of
// twice that): a token bucket per participant and session, in this process. Several web
// processes each keep their own, so behind N processes the bound is N times as loose at worst
// (a browser keeps its connection, and so its process, for a session's messages).
import { config } from '../config.ts';
import { HttpError } from '../http.ts';

interface Bucket {
  tokens: number;
  at: number;
}

const buckets = new Map<string, Bucket>();
const SWEEP_EVERY = 1000;
let calls = 0;

export const TOO_FAST = 'Too many live messages: slow down a little.';

/** Takes one token for `key`, or throws 429. */
export function spend(key: string, now = Date.now()): void {
  const rate = config.LIVE_EVENTS_PER_SECOND;
  const capacity = rate * 2;
  const b = buckets.get(key) ?? { tokens: capacity, at: now };
  b.tokens = Math.min(capacity, b.tokens + ((now - b.at) / 1000) * rate);
  b.at = now;
  if (b.tokens < 1) {
    buckets.set(key, b);
    throw new HttpError(429, TOO_FAST);
  }
  b.tokens -= 1;
  buckets.set(key, b);
  // Full buckets say nothing: forget them now and then, so the map stays small.
  if (++calls % SWEEP_EVERY === 0) {
    for (const [k, v] of buckets) if (v.tokens + ((now - v.at) / 1000) * rate >= capacity) buckets.delete(k);
  }
}
