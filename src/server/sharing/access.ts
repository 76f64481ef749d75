// How a visitor without an account gets through a share link (issue 17). Every request looks
// the link up again by its token, so a revocation or an expiry takes effect on the next one.
// A visit is a pass for one link (random token in an HttpOnly cookie, only its SHA-256
// stored): made on opening, after the password when the link has one.
import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { APIContext, AstroCookies } from 'astro';
import { db } from '../../db/index.ts';
import { shareAccessLog, shareLinks, shareVisits } from '../../db/schema.ts';
import { clientIp, HttpError, notFound } from '../http.ts';
import { isHttps } from '../proxy.ts';
import { verifyPassword } from '../auth/password.ts';
import { generateSessionToken, sessionIdFromToken } from '../auth/tokens.ts';
import { forgetAttempts, reserveCounters, type Counter } from '../auth/throttle.ts';
import { rememberDevice, trustedDeviceId } from '../auth/devices.ts';
import { linkState, type LinkRow } from './links.ts';

export type VisitRow = typeof shareVisits.$inferSelect;
type Ctx = Pick<APIContext, 'cookies' | 'request' | 'url'> & Partial<Pick<APIContext, 'clientAddress'>>;

/** 25 random bytes in lowercase base32 (see tokens.ts): anything else names no link. */
const TOKEN_RE = /^[a-z2-7]{40}$/;

export const LINK_GONE = 'This link is not available. It may have expired or been switched off.';
/** The 429 of the password: the wait it states is the true one (the link's bar lasts an hour). */
export function passwordThrottled(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `Too many wrong passwords for this link. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
}
export const WRONG_PASSWORD = 'That password is not right.';
export const PASSWORD_NEEDED = 'Enter the password for this link first.';
export const OPEN_FIRST = 'Open the link first: this address is for its page.';
export const VISITS_THROTTLED = 'Too many visits from your address. Please wait a few minutes and try again.';

/**
 * Wrong passwords (issue 31), counted across processes: 5 per link and address per 15 minutes,
 * so a guesser elsewhere cannot lock the real visitor out, and a higher bar per link (50 an
 * hour) that keeps guessing from many addresses slow. A browser that entered the password
 * before (its device cookie, issue 40) is counted on its own instead, 5 per 15 minutes, so
 * guessers from 11 addresses filling the link's bar do not lock its visitor out.
 */
export const PASSWORD_MAX = 5;
export const PASSWORD_WINDOW_MS = 15 * 60 * 1000;
export const PASSWORD_LINK_MAX = 50;
export const PASSWORD_LINK_WINDOW_MS = 60 * 60 * 1000;
/** New visits (passes) one address may start, across links: each is a database row. */
export const VISIT_MAX = 100;
export const VISIT_WINDOW_MS = 10 * 60 * 1000;
/** The access log keeps one "open" per visit in this time, however often the page is reloaded. */
export const OPEN_LOG_INTERVAL_MS = 60 * 60 * 1000;
const VISIT_TTL_MS = 7 * 24 * 3600 * 1000;

export const visitCookie = (linkId: number) => `studio_share_${linkId}`;

/** The link a token names, while it is neither revoked nor expired. */
export async function findActiveLink(token: string | undefined): Promise<LinkRow | null> {
  if (!token || !TOKEN_RE.test(token)) return null;
  const [link] = await db.select().from(shareLinks).where(eq(shareLinks.tokenHash, sessionIdFromToken(token))).limit(1);
  return link && linkState(link) === 'active' ? link : null;
}

export async function currentVisit(cookies: AstroCookies, link: LinkRow): Promise<VisitRow | null> {
  const token = cookies.get(visitCookie(link.id))?.value;
  if (!token || !TOKEN_RE.test(token)) return null;
  const [visit] = await db
    .select()
    .from(shareVisits)
    .where(and(eq(shareVisits.id, sessionIdFromToken(token)), eq(shareVisits.linkId, link.id), gt(shareVisits.expiresAt, new Date())))
    .limit(1);
  return visit ?? null;
}

/** Makes a pass (a row and a cookie): only when the page is opened or unlocked, a bounded number per address. */
async function startVisit(ctx: Ctx, link: LinkRow): Promise<VisitRow> {
  await reserveCounters([{ key: `share-visit:${addressOf(ctx) ?? 'unknown'}`, max: VISIT_MAX, windowMs: VISIT_WINDOW_MS }], VISITS_THROTTLED);
  const token = generateSessionToken();
  const expiresAt = new Date(Math.min(Date.now() + VISIT_TTL_MS, link.expiresAt?.getTime() ?? Infinity));
  // Passes past their time open nothing; they go as new ones are made.
  await db.delete(shareVisits).where(lt(shareVisits.expiresAt, new Date()));
  const [visit] = await db.insert(shareVisits).values({ id: sessionIdFromToken(token), linkId: link.id, expiresAt }).returning();
  ctx.cookies.set(visitCookie(link.id), token, { httpOnly: true, sameSite: 'lax', path: '/', secure: isHttps(ctx), expires: expiresAt });
  return visit!;
}

/**
 * The link's page is opened: the visitor's pass, made now for a link without a password (null
 * when the link needs its password first; the page then shows the password form). Writes one
 * "open" to the access log per visit an hour, however often the page is reloaded.
 */
export async function openPage(ctx: Ctx, link: LinkRow): Promise<VisitRow | null> {
  const visit = (await currentVisit(ctx.cookies, link)) ?? (link.passwordHash ? null : await startVisit(ctx, link));
  if (!visit) return null;
  const now = new Date();
  const due = await db
    .update(shareVisits)
    .set({ lastOpenAt: now })
    .where(and(eq(shareVisits.id, visit.id), or(isNull(shareVisits.lastOpenAt), lt(shareVisits.lastOpenAt, new Date(now.getTime() - OPEN_LOG_INTERVAL_MS)))))
    .returning({ id: shareVisits.id });
  if (due.length) await logAccess(ctx, link, 'open', { guestName: visit.guestName });
  return visit;
}

/**
 * For the visitor's API calls and files: the active link and their pass (404 / 401 otherwise).
 * Passes are made only by opening the page (or its password), never here: a request without
 * a cookie writes nothing.
 */
export async function requireVisit(ctx: Ctx, token: string | undefined): Promise<{ link: LinkRow; visit: VisitRow }> {
  const link = await findActiveLink(token);
  if (!link) throw notFound(LINK_GONE);
  const visit = await currentVisit(ctx.cookies, link);
  if (!visit) throw new HttpError(401, link.passwordHash ? PASSWORD_NEEDED : OPEN_FIRST);
  return { link, visit };
}

function addressOf(ctx: Ctx): string | null {
  return ctx.clientAddress === undefined ? null : clientIp(ctx as APIContext);
}

export async function logAccess(ctx: Ctx, link: Pick<LinkRow, 'id'>, action: string, extra: { mediaId?: number | null; guestName?: string; detail?: string } = {}): Promise<void> {
  await db.insert(shareAccessLog).values({
    linkId: link.id,
    action,
    ip: addressOf(ctx),
    mediaId: extra.mediaId ?? null,
    guestName: extra.guestName ?? '',
    detail: (extra.detail ?? '').slice(0, 500),
  });
}

/**
 * Checks the link's password. Each try is counted before it is checked, in one transaction
 * (see auth/throttle.ts), so 20 tries at once from one address still check at most 5; a right
 * one is not counted.
 */
export async function unlock(ctx: Ctx, token: string | undefined, password: string): Promise<void> {
  const link = await findActiveLink(token);
  if (!link) throw notFound(LINK_GONE);
  if (!link.passwordHash) {
    if (!(await currentVisit(ctx.cookies, link))) await startVisit(ctx, link);
    return;
  }
  const device = await trustedDeviceId(ctx.cookies, 'share', link.id);
  const counters: Counter[] = device
    ? [{ key: `share:${link.id}:device:${device}`, max: PASSWORD_MAX, windowMs: PASSWORD_WINDOW_MS }]
    : [
        { key: `share:${link.id}@${addressOf(ctx) ?? 'unknown'}`, max: PASSWORD_MAX, windowMs: PASSWORD_WINDOW_MS },
        { key: `share:${link.id}`, max: PASSWORD_LINK_MAX, windowMs: PASSWORD_LINK_WINDOW_MS },
      ];
  const ids = await reserveCounters(counters, passwordThrottled);
  if (!(await verifyPassword(link.passwordHash, password))) {
    await logAccess(ctx, link, 'wrong password');
    throw new HttpError(401, WRONG_PASSWORD);
  }
  await forgetAttempts(ids);
  await startVisit(ctx, link);
  // Until the password changes (links.ts forgets the link's devices then).
  await rememberDevice(ctx.cookies, 'share', link.id, isHttps(ctx));
  await logAccess(ctx, link, 'unlock');
}

/** The guest name, typed once per visit and kept with it. */
export async function setGuestName(visit: VisitRow, name: string): Promise<void> {
  await db.update(shareVisits).set({ guestName: name }).where(eq(shareVisits.id, visit.id));
  visit.guestName = name;
}
