// Staff and client sessions share one lifecycle, each kind with its own table and cookie.
import { and, eq, lt, ne, or } from 'drizzle-orm';
import type { AstroCookies } from 'astro';
import { db } from '../../db/index.ts';
import { clientSessions, staffSessions } from '../../db/schema.ts';
import { generateSessionToken, sessionIdFromToken } from './tokens.ts';

const DAY = 24 * 60 * 60 * 1000;
export const SESSION_TTL_MS = 30 * DAY;
export const SESSION_RENEW_BELOW_MS = 15 * DAY;
export const SESSION_ABSOLUTE_MS = 90 * DAY;

export type SessionKind = 'staff' | 'client';

export const SESSION_COOKIE: Record<SessionKind, string> = {
  staff: 'studio_session',
  client: 'studio_client_session',
};

export interface SessionRow {
  id: string;
  ownerId: string | number;
  expiresAt: Date;
  createdAt: Date;
  /** The second factor the session was made with (issue 56), null for a password alone. */
  secondFactor: string | null;
  /** True when this lookup slid the expiry forward (the cookie must be re-sent). */
  renewed: boolean;
}

const table = { staff: staffSessions, client: clientSessions } as const;

function ownerColumn(kind: SessionKind) {
  return kind === 'staff' ? staffSessions.userId : clientSessions.clientUserId;
}

/**
 * A new session. `secondFactor`: the factor the sign-in was finished with ('totp', 'recovery',
 * 'trusted-browser'), null for a password alone; never claimed, always what was checked.
 */
export async function createSession(kind: SessionKind, ownerId: string | number, secondFactor: string | null): Promise<{ token: string; expiresAt: Date }> {
  const token = generateSessionToken();
  const now = Date.now();
  const expiresAt = new Date(now + SESSION_TTL_MS);
  const id = sessionIdFromToken(token);
  if (kind === 'staff') {
    await db.insert(staffSessions).values({ id, userId: String(ownerId), expiresAt, createdAt: new Date(now), secondFactor });
  } else {
    await db.insert(clientSessions).values({ id, clientUserId: Number(ownerId), expiresAt, createdAt: new Date(now), secondFactor });
  }
  return { token, expiresAt };
}

/**
 * Looks a token up; deletes it when expired or past the absolute cap, and slides the
 * expiry forward when less than SESSION_RENEW_BELOW_MS remain.
 * Returns the session (with the possibly new expiry) or null.
 */
export async function validateSessionToken(kind: SessionKind, token: string): Promise<SessionRow | null> {
  const id = sessionIdFromToken(token);
  const t = table[kind];
  const [row] = await db.select().from(t).where(eq(t.id, id)).limit(1);
  if (!row) return null;
  const now = Date.now();
  const capEnd = row.createdAt.getTime() + SESSION_ABSOLUTE_MS;
  if (now >= row.expiresAt.getTime() || now >= capEnd) {
    await db.delete(t).where(eq(t.id, id));
    return null;
  }
  let expiresAt = row.expiresAt;
  let renewed = false;
  if (expiresAt.getTime() - now < SESSION_RENEW_BELOW_MS) {
    expiresAt = new Date(Math.min(now + SESSION_TTL_MS, capEnd));
    await db.update(t).set({ expiresAt }).where(eq(t.id, id));
    renewed = true;
  }
  const ownerId = 'userId' in row ? row.userId : row.clientUserId;
  return { id, ownerId, expiresAt, createdAt: row.createdAt, secondFactor: row.secondFactor, renewed };
}

export async function invalidateSession(kind: SessionKind, sessionId: string): Promise<void> {
  const t = table[kind];
  await db.delete(t).where(eq(t.id, sessionId));
}

/** Ends every session of one account (deactivation, password change, reset). */
export async function invalidateAllSessions(kind: SessionKind, ownerId: string | number): Promise<void> {
  const t = table[kind];
  await db.delete(t).where(eq(ownerColumn(kind), kind === 'staff' ? String(ownerId) : Number(ownerId)));
}

type Writer = Pick<typeof db, 'update' | 'delete'>;

/**
 * The account's other sessions end and this one is marked as made with `secondFactor` (an
 * authenticator app just set up from it: sessions a stolen password may have made before go).
 */
export async function keepOnlySession(kind: SessionKind, ownerId: string | number, sessionId: string, secondFactor: string, tx: Writer = db): Promise<void> {
  const t = table[kind];
  await tx.delete(t).where(and(eq(ownerColumn(kind), kind === 'staff' ? String(ownerId) : Number(ownerId)), ne(t.id, sessionId)));
  await tx.update(t).set({ secondFactor }).where(eq(t.id, sessionId));
}

export async function purgeExpiredSessions(): Promise<void> {
  const now = new Date();
  const cap = new Date(Date.now() - SESSION_ABSOLUTE_MS);
  await db.delete(staffSessions).where(or(lt(staffSessions.expiresAt, now), lt(staffSessions.createdAt, cap)));
  await db.delete(clientSessions).where(or(lt(clientSessions.expiresAt, now), lt(clientSessions.createdAt, cap)));
}

export function setSessionCookie(cookies: AstroCookies, kind: SessionKind, token: string, expiresAt: Date, secure: boolean) {
  cookies.set(SESSION_COOKIE[kind], token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
    expires: expiresAt,
  });
}

export function clearSessionCookie(cookies: AstroCookies, kind: SessionKind, secure: boolean) {
  cookies.set(SESSION_COOKIE[kind], '', { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: 0 });
}
