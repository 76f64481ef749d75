// The gallery's download PIN (issue 42): four digits the studio gives its clients. Viewing is
// free; every download asks for it once per browser (a pass for a day, only its SHA-256 kept).
// Four digits are 10,000 tries, so guesses are throttled like passwords: 5 per gallery and
// address in 15 minutes and 50 per gallery an hour, counted before they are checked. The
// gallery's bar is for strangers: a signed-in client (per login) and a browser that entered the
// PIN before (its device cookie, as share-link passwords) have 5 in 15 minutes of their own, so
// guessers from many addresses cannot lock them out.
import { timingSafeEqual } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { APIContext } from 'astro';
import { db } from '../../db/index.ts';
import { galleryPinPasses } from '../../db/schema.ts';
import { HttpError } from '../http.ts';
import { forgetAttempts, reserveCounters, type Counter } from '../auth/throttle.ts';
import { forgetDevices, rememberDevice, trustedDeviceId } from '../auth/devices.ts';
import { generateSessionToken, sessionIdFromToken } from '../auth/tokens.ts';
import { isHttps } from '../proxy.ts';
import { addressOf, logLinkAccess, type Viewing } from './access.ts';

export const PIN_MAX = 5;
export const PIN_WINDOW_MS = 15 * 60 * 1000;
export const PIN_GALLERY_MAX = 50;
export const PIN_GALLERY_WINDOW_MS = 60 * 60 * 1000;
const PASS_TTL_MS = 24 * 3600 * 1000;
const TOKEN_RE = /^[a-z2-7]{40}$/;

export const WRONG_PIN = 'That PIN is not right.';
export const pinThrottled = (waitMs: number) => {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `Too many wrong PINs. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
};

const pinCookie = (galleryId: number) => `studio_pin_${galleryId}`;

/** Whether this browser may download: the gallery has no PIN, or it entered it. */
export async function pinOk(v: Viewing): Promise<boolean> {
  if (!v.gallery.downloadPin) return true;
  const token = v.ctx.cookies.get(pinCookie(v.gallery.id))?.value;
  if (!token || !TOKEN_RE.test(token)) return false;
  const [row] = await db
    .select({ id: galleryPinPasses.id })
    .from(galleryPinPasses)
    .where(and(eq(galleryPinPasses.id, sessionIdFromToken(token)), eq(galleryPinPasses.galleryId, v.gallery.id), gt(galleryPinPasses.expiresAt, new Date())))
    .limit(1);
  return !!row;
}

export async function unlockPin(v: Viewing, pin: string): Promise<void> {
  const expected = v.gallery.downloadPin;
  if (!expected) return;
  const g = v.gallery.id;
  const ids = await reserveCounters(await pinCounters(v), pinThrottled);
  if (!timingSafeEqual(Buffer.from(pin.padEnd(4).slice(0, 4)), Buffer.from(expected.padEnd(4).slice(0, 4)))) {
    await logLinkAccess(v, 'wrong PIN');
    throw new HttpError(401, WRONG_PIN);
  }
  await forgetAttempts(ids);
  const token = generateSessionToken();
  const expiresAt = new Date(Math.min(Date.now() + PASS_TTL_MS, v.gallery.expiresAt?.getTime() ?? Infinity));
  await db.delete(galleryPinPasses).where(lt(galleryPinPasses.expiresAt, new Date()));
  await db.insert(galleryPinPasses).values({ id: sessionIdFromToken(token), galleryId: g, expiresAt });
  const secure = isHttps(v.ctx as APIContext);
  v.ctx.cookies.set(pinCookie(g), token, { httpOnly: true, sameSite: 'lax', path: '/', secure, expires: expiresAt });
  // Until the PIN changes (forgetPinPasses).
  await rememberDevice(v.ctx.cookies, 'pin', g, secure);
  await logLinkAccess(v, 'PIN entered');
}

/** Whose tries this one counts with: the viewer's own (signed in, or a browser that knew the PIN), else the address's and the gallery's. */
async function pinCounters(v: Viewing): Promise<Counter[]> {
  const g = v.gallery.id;
  const own = (who: string): Counter[] => [{ key: `gallery-pin:${g}:${who}`, max: PIN_MAX, windowMs: PIN_WINDOW_MS }];
  if (v.kind === 'client') return own(`client:${v.client.id}`);
  const device = await trustedDeviceId(v.ctx.cookies, 'pin', g);
  if (device) return own(`device:${device}`);
  return [
    { key: `gallery-pin:${g}@${addressOf(v) ?? 'unknown'}`, max: PIN_MAX, windowMs: PIN_WINDOW_MS },
    { key: `gallery-pin:${g}`, max: PIN_GALLERY_MAX, windowMs: PIN_GALLERY_WINDOW_MS },
  ];
}

/** A new or removed PIN ends the passes made with the old one, and the browsers that knew it count with everyone. */
export async function forgetPinPasses(galleryId: number): Promise<void> {
  await db.delete(galleryPinPasses).where(eq(galleryPinPasses.galleryId, galleryId));
  await forgetDevices('pin', galleryId);
}
