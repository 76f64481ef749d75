// Sign-in throttle: after MAX_FAILURES failed attempts for one username or one address
// within WINDOW_MS, further attempts answer 429 until the window passes. Stored in the
// database so it holds across server processes.
import { and, count, gt, inArray, lt } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { loginAttempts } from '../../db/schema.ts';
import { HttpError } from '../http.ts';

export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60 * 1000;

function keys(scope: string, username: string, ip: string | null): string[] {
  const k = [`${scope}:user:${username.trim().toLowerCase()}`];
  if (ip) k.push(`${scope}:ip:${ip}`);
  return k;
}

export async function assertNotThrottled(scope: string, username: string, ip: string | null): Promise<void> {
  const since = new Date(Date.now() - WINDOW_MS);
  for (const key of keys(scope, username, ip)) {
    const [row] = await db
      .select({ n: count() })
      .from(loginAttempts)
      .where(and(inArray(loginAttempts.key, [key]), gt(loginAttempts.attemptedAt, since)));
    if ((row?.n ?? 0) >= MAX_FAILURES) {
      throw new HttpError(429, 'Too many failed sign-in attempts. Please wait 15 minutes and try again.');
    }
  }
}

export async function recordFailure(scope: string, username: string, ip: string | null): Promise<void> {
  const now = new Date();
  await db.insert(loginAttempts).values(keys(scope, username, ip).map((key) => ({ key, attemptedAt: now })));
  // Keep the table small.
  await db.delete(loginAttempts).where(lt(loginAttempts.attemptedAt, new Date(Date.now() - WINDOW_MS)));
}

export async function clearFailures(scope: string, username: string): Promise<void> {
  const [userKey] = keys(scope, username, null);
  await db.delete(loginAttempts).where(inArray(loginAttempts.key, [userKey!]));
}
