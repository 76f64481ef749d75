// Messages per second in live sessions: token buckets, in this process. One per participant and
// session (LIVE_EVENTS_PER_SECOND) and one per share link (LIVE_LINK_EVENTS_PER_SECOND, all its
// guests together: a visitor's pass costs nothing to make, so a bound per pass alone bounds
// nothing), each with a burst of twice its rate. Several web processes each keep their own, so
// behind N processes the bound is N times as loose at worst.
import { config } from '../config.ts';
import { HttpError } from '../http.ts';
import { principalKey, type LivePrincipal } from './principal.ts';

interface Bucket {
  tokens: number;
  at: number;
  rate: number;
}

const buckets = new Map<string, Bucket>();
const SWEEP_EVERY = 1000;
let calls = 0;

export const TOO_FAST = 'Too many live messages: slow down a little.';

const refilled = (b: Bucket, now: number) => Math.min(b.rate * 2, b.tokens + ((now - b.at) / 1000) * b.rate);

/** Takes one token from `key`'s bucket (`rate` a second, a burst of twice that), or throws 429. */
export function spend(key: string, rate: number, now = Date.now()): void {
  const b = buckets.get(key) ?? { tokens: rate * 2, at: now, rate };
  b.tokens = refilled(b, now);
  b.at = now;
  buckets.set(key, b);
  if (b.tokens < 1) throw new HttpError(429, TOO_FAST);
  b.tokens -= 1;
  // Full buckets say nothing: forget them now and then, so the map stays small.
  if (++calls % SWEEP_EVERY === 0) {
    for (const [k, v] of buckets) if (refilled(v, now) >= v.rate * 2) buckets.delete(k);
  }
}

/** One message of `p` in a session: a token of theirs and, for a guest, one of their link's. */
export function spendLive(p: LivePrincipal, sessionId: number): void {
  spend(`${sessionId}:${principalKey(p)}`, config.LIVE_EVENTS_PER_SECOND);
  if (p.kind === 'link') spend(`link:${p.linkId}`, config.LIVE_LINK_EVENTS_PER_SECOND);
}
