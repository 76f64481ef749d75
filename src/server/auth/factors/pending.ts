// A sign-in whose password was right and whose second factor is awaited. The browser holds a
// random token in an HttpOnly cookie (only its SHA-256 is stored, as for sessions), good for ten
// minutes and one account; the second step finishes it with any factor the account has
// (sign-in.ts). Nothing here is a session: the token opens no page and no API but the second step.
import { and, eq, gt, lt } from 'drizzle-orm';
import type { AstroCookies } from 'astro';
import { db } from '../../../db/index.ts';
import { pendingSignIns } from '../../../db/schema.ts';
import { generateSessionToken, sessionIdFromToken } from '../tokens.ts';
import type { SessionKind } from '../sessions.ts';
import { ownedBy, ownerValues, type FactorAccount } from './account.ts';

export const PENDING_TTL_MS = 10 * 60 * 1000;
const TOKEN_RE = /^[a-z2-7]{40}$/;

export const PENDING_COOKIE: Record<SessionKind, string> = {
  staff: 'studio_sign_in',
  client: 'studio_client_sign_in',
};

export const PENDING_EXPIRED = 'Your sign-in has expired. Enter your username and password again.';

export async function beginPendingSignIn(cookies: AstroCookies, account: FactorAccount, secure: boolean): Promise<void> {
  const token = generateSessionToken();
  const expiresAt = new Date(Date.now() + PENDING_TTL_MS);
  await db.delete(pendingSignIns).where(lt(pendingSignIns.expiresAt, new Date()));
  await db.insert(pendingSignIns).values({ id: sessionIdFromToken(token), ...ownerValues(account), expiresAt });
  cookies.set(PENDING_COOKIE[account.kind], token, { httpOnly: true, sameSite: 'lax', path: '/', secure, expires: expiresAt });
}

/** The account whose sign-in this browser is finishing, or null (none, expired, or ended). */
export async function pendingAccount(cookies: AstroCookies, kind: SessionKind): Promise<FactorAccount | null> {
  const token = cookies.get(PENDING_COOKIE[kind])?.value;
  if (!token || !TOKEN_RE.test(token)) return null;
  const [row] = await db
    .select({ userId: pendingSignIns.userId, clientUserId: pendingSignIns.clientUserId })
    .from(pendingSignIns)
    .where(and(eq(pendingSignIns.id, sessionIdFromToken(token)), gt(pendingSignIns.expiresAt, new Date())))
    .limit(1);
  if (!row) return null;
  if (kind === 'staff') return row.userId ? { kind, id: row.userId } : null;
  return row.clientUserId !== null ? { kind, id: row.clientUserId } : null;
}

/** The browser's pending sign-in is over (finished, or a new password sign-in replaced it). */
export async function endPendingSignIn(cookies: AstroCookies, kind: SessionKind, secure: boolean): Promise<void> {
  const token = cookies.get(PENDING_COOKIE[kind])?.value;
  if (token && TOKEN_RE.test(token)) await db.delete(pendingSignIns).where(eq(pendingSignIns.id, sessionIdFromToken(token)));
  cookies.set(PENDING_COOKIE[kind], '', { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: 0 });
}

/** Every pending sign-in of the account ends (its factors were reset or removed). */
export async function endPendingSignInsOf(account: FactorAccount, tx: Pick<typeof db, 'delete'> = db): Promise<void> {
  await tx.delete(pendingSignIns).where(ownedBy(pendingSignIns, account));
}
