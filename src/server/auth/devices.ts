// Device cookies (OWASP's "Slow Down Online Guessing Attacks with Device Cookies", issue 31).
// After a successful sign-in the browser gets a random token in an HttpOnly cookie; only its
// SHA-256 is stored, tied to the account (as for sessions). A later sign-in from that device
// is not held up by the account-wide bar, which failures from other addresses fill: it has a
// counter of its own (see throttle.ts), so a guesser elsewhere cannot lock the owner out.
//
// Share links with a password use the same cookies (issue 40): a visitor who entered the link's
// password before is counted on their own, so guessers from many addresses, who fill the link's
// bar, cannot lock them out. One cookie per link, since a browser may hold several. A gallery's
// download PIN does the same (issue 51): one cookie per gallery.
//
// "Trust this browser for 30 days" (issue 56) is the same cookie: the device's row then says
// until when a sign-in from it asks for no second factor. A device that only signed in before
// (the throttle's sense) is not trusted for that.
import { and, count, eq, gt, isNotNull, lt } from 'drizzle-orm';
import type { AstroCookies } from 'astro';
import { db } from '../../db/index.ts';
import { trustedDevices } from '../../db/schema.ts';
import { generateSessionToken, sessionIdFromToken } from './tokens.ts';
import type { SessionKind } from './sessions.ts';

const DEVICE_TTL_MS = 180 * 24 * 3600 * 1000;
export const TRUST_BROWSER_MS = 30 * 24 * 3600 * 1000;
const TOKEN_RE = /^[a-z2-7]{40}$/;

/** Whose device it is: a staff or client account, a share link's password, or a gallery's download PIN. */
export type DeviceKind = SessionKind | 'share' | 'pin';

export const deviceCookie = (kind: DeviceKind, id: string | number) => (kind === 'share' || kind === 'pin' ? `studio_device_${kind}_${id}` : `studio_device_${kind}`);
export const deviceAccount = (kind: DeviceKind, id: string | number) => `${kind}:${id}`;

/** The device's id when its cookie was given to this account before, else null. */
export async function trustedDeviceId(cookies: AstroCookies, kind: DeviceKind, accountId: string | number): Promise<string | null> {
  const token = cookies.get(deviceCookie(kind, accountId))?.value;
  if (!token || !TOKEN_RE.test(token)) return null;
  const id = sessionIdFromToken(token);
  const [row] = await db
    .select({ id: trustedDevices.id })
    .from(trustedDevices)
    .where(and(eq(trustedDevices.id, id), eq(trustedDevices.account, deviceAccount(kind, accountId)), gt(trustedDevices.expiresAt, new Date())))
    .limit(1);
  return row?.id ?? null;
}

/** After a successful sign-in: the device is (again) one this account signed in from. Answers its id. */
export async function rememberDevice(cookies: AstroCookies, kind: DeviceKind, accountId: string | number, secure: boolean): Promise<string> {
  const expiresAt = new Date(Date.now() + DEVICE_TTL_MS);
  const known = await trustedDeviceId(cookies, kind, accountId);
  const token = known ? cookies.get(deviceCookie(kind, accountId))!.value : generateSessionToken();
  if (known) {
    await db.update(trustedDevices).set({ expiresAt }).where(eq(trustedDevices.id, known));
  } else {
    await db.delete(trustedDevices).where(lt(trustedDevices.expiresAt, new Date()));
    await db.insert(trustedDevices).values({ id: sessionIdFromToken(token), account: deviceAccount(kind, accountId), expiresAt });
  }
  cookies.set(deviceCookie(kind, accountId), token, { httpOnly: true, sameSite: 'lax', path: '/', secure, expires: expiresAt });
  return known ?? sessionIdFromToken(token);
}

/** Whether this browser's device cookie is trusted to skip the account's second factor now. */
export async function browserTrusted(cookies: AstroCookies, kind: SessionKind, accountId: string | number): Promise<boolean> {
  const id = await trustedDeviceId(cookies, kind, accountId);
  if (!id) return false;
  const [row] = await db
    .select({ id: trustedDevices.id })
    .from(trustedDevices)
    .where(and(eq(trustedDevices.id, id), gt(trustedDevices.secondFactorUntil, new Date())))
    .limit(1);
  return !!row;
}

/** "Trust this browser for 30 days", on the device `rememberDevice` answered. */
export async function trustBrowser(deviceId: string): Promise<void> {
  await db.update(trustedDevices).set({ secondFactorUntil: new Date(Date.now() + TRUST_BROWSER_MS) }).where(eq(trustedDevices.id, deviceId));
}

/** No browser of the account skips its second factor any more (a factor set up, removed or reset). */
export async function forgetTrustedBrowsers(kind: SessionKind, accountId: string | number, tx: Pick<typeof db, 'update'> = db): Promise<void> {
  await tx.update(trustedDevices).set({ secondFactorUntil: null }).where(and(eq(trustedDevices.account, deviceAccount(kind, accountId)), isNotNull(trustedDevices.secondFactorUntil)));
}

export async function trustedBrowserCount(kind: SessionKind, accountId: string | number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(trustedDevices)
    .where(and(eq(trustedDevices.account, deviceAccount(kind, accountId)), gt(trustedDevices.secondFactorUntil, new Date())));
  return row?.n ?? 0;
}

/** Every device of the account counts for nothing any more (a share link's password or a gallery's PIN changed). */
export async function forgetDevices(kind: DeviceKind, accountId: string | number, tx: Pick<typeof db, 'delete'> = db): Promise<void> {
  await tx.delete(trustedDevices).where(eq(trustedDevices.account, deviceAccount(kind, accountId)));
}
