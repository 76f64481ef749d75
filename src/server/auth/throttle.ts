// Sign-in throttle, stored in the database so it holds across server processes.
//
// Three counters, each a sliding window of attempt rows:
//  - the pair (account, address): the hard limit, so one address cannot keep guessing;
//  - the account across all addresses: a much higher bar, so a distributed guesser stays slow
//    while one attacker's address cannot lock the real user out elsewhere;
//  - the address across all accounts: stops one address spraying many usernames.
// A device the account signed in from before (devices.ts, issue 31) is counted on its own
// instead (5 per 15 minutes): failures from other addresses cannot lock its owner out.
// The account is keyed by user id when the login names one (username and email share a count)
// and by the cleaned login string otherwise, with the same limits, so the answers do not
// reveal whether an account exists.
//
// An attempt is reserved (counted) before the password is checked, in one IMMEDIATE
// transaction, so parallel requests cannot all pass the check before any failure is recorded.
import { and, asc, gt, inArray, lt, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { loginAttempts } from '../../db/schema.ts';
import { HttpError } from '../http.ts';

export const PAIR_MAX = 5;
export const PAIR_WINDOW_MS = 15 * 60 * 1000;
export const ACCOUNT_MAX = 50;
export const ACCOUNT_WINDOW_MS = 60 * 60 * 1000;
export const ADDRESS_MAX = 20;
export const ADDRESS_WINDOW_MS = 15 * 60 * 1000;

export const THROTTLED_MESSAGE = 'Too many failed sign-in attempts. Please wait 15 minutes and try again.';

export interface Counter {
  key: string;
  max: number;
  windowMs: number;
}

export interface Reservation {
  ids: number[];
  pairKey: string;
}

/**
 * `account` is the user id when the login names a user, else null (then the login string is
 * used); `device` the trusted device's id when the sign-in comes from one.
 */
function counters(scope: string, login: string, account: string | number | null, ip: string | null, device: string | null): Counter[] {
  if (device) return [{ key: `${scope}:device:${device}`, max: PAIR_MAX, windowMs: PAIR_WINDOW_MS }];
  const who = account === null ? `name:${login.trim().toLowerCase()}` : `id:${account}`;
  const where = ip ?? 'unknown';
  return [
    { key: `${scope}:pair:${who}@${where}`, max: PAIR_MAX, windowMs: PAIR_WINDOW_MS },
    { key: `${scope}:account:${who}`, max: ACCOUNT_MAX, windowMs: ACCOUNT_WINDOW_MS },
    { key: `${scope}:ip:${where}`, max: ADDRESS_MAX, windowMs: ADDRESS_WINDOW_MS },
  ];
}

/**
 * Counts this attempt against every counter, or throws 429 (recording nothing) when one is
 * full. Call before verifying the password; on success call `release`.
 */
export async function reserveAttempt(
  scope: string,
  login: string,
  account: string | number | null,
  ip: string | null,
  device: string | null = null,
): Promise<Reservation> {
  const list = counters(scope, login, account, ip, device);
  const ids = await reserveCounters(list, THROTTLED_MESSAGE);
  return { ids, pairKey: list[0]!.key };
}

const LONGEST_WINDOW_MS = Math.max(PAIR_WINDOW_MS, ACCOUNT_WINDOW_MS, ADDRESS_WINDOW_MS);

/**
 * The one throttle: records an attempt under every counter in one IMMEDIATE transaction, or
 * throws 429 with `message` (recording nothing) when any is full. Returns the rows' ids.
 * `message` may be made from the true wait: until every full counter lets one more through.
 */
export async function reserveCounters(list: Counter[], message: string | ((waitMs: number) => string)): Promise<number[]> {
  const now = Date.now();
  const ids = await db.transaction(async (tx) => {
    let waitMs = -1;
    for (const c of list) {
      const counted = and(inArray(loginAttempts.key, [c.key]), gt(loginAttempts.attemptedAt, new Date(now - c.windowMs)));
      const [row] = await tx.select({ n: sql<number>`count(*)` }).from(loginAttempts).where(counted);
      const n = Number(row?.n ?? 0);
      if (n < c.max) continue;
      // One more gets through once the attempt that brought the count to its max leaves the window.
      const [freed] = await tx
        .select({ at: loginAttempts.attemptedAt })
        .from(loginAttempts)
        .where(counted)
        .orderBy(asc(loginAttempts.attemptedAt))
        .limit(1)
        .offset(n - c.max);
      waitMs = Math.max(waitMs, (freed?.at.getTime() ?? now) + c.windowMs - now);
    }
    if (waitMs >= 0) throw new HttpError(429, typeof message === 'string' ? message : message(waitMs));
    const inserted = await tx
      .insert(loginAttempts)
      .values(list.map((c) => ({ key: c.key, attemptedAt: new Date(now) })))
      .returning({ id: loginAttempts.id });
    return inserted.map((r) => r.id);
  });
  // Keep the table small: nothing older than the longest window counts.
  await db.delete(loginAttempts).where(lt(loginAttempts.attemptedAt, new Date(now - LONGEST_WINDOW_MS)));
  return ids;
}

/** Forgets attempts that turned out right (they do not count against anyone). */
export async function forgetAttempts(ids: number[]): Promise<void> {
  if (ids.length) await db.delete(loginAttempts).where(inArray(loginAttempts.id, ids));
}

/**
 * A successful sign-in does not count, and clears the earlier failures of the same pair
 * (the user got it right from here). Failures from other addresses keep counting.
 */
export async function release(reservation: Reservation): Promise<void> {
  await forgetAttempts(reservation.ids);
  await db.delete(loginAttempts).where(inArray(loginAttempts.key, [reservation.pairKey]));
}
