// Passkeys (WebAuthn, issue 56) of staff users, with @simplewebauthn/server: added and named on
// the Security page, used as the second step of a password sign-in, to confirm a change of the
// account's own factors, or to sign in alone without a username (a passkey asks the device's
// PIN or biometrics, so it is two factors in one: user verification is required there).
//
// Every ceremony starts with a challenge this server makes and keeps (passkey_challenges: its
// purpose, the account it is for, five minutes, one use) behind a random token in an HttpOnly
// cookie; the answer is checked against that challenge, this site's origin and relying-party id,
// and the stored public key and signature counter. The relying party is the site as people open
// it: SITE_URL's host when set, else the request's (publicOrigin), so a passkey made on one
// address never signs in on another.
import type { APIContext } from 'astro';
import { and, asc, count, eq, gt, lt } from 'drizzle-orm';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { db } from '../../../db/index.ts';
import { passkeyChallenges, passkeys } from '../../../db/schema.ts';
import { HttpError } from '../../http.ts';
import { isHttps, publicOrigin } from '../../proxy.ts';
import { getBrandingSettings } from '../../settings/read.ts';
import type { PasskeyInfo, PasskeyResponse } from '../../../shared/schemas/second-factor.ts';
import { generateSessionToken, sessionIdFromToken } from '../tokens.ts';

type Ctx = Pick<APIContext, 'cookies' | 'url' | 'request'>;
type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];
export type ChallengePurpose = (typeof passkeyChallenges.$inferSelect)['purpose'];

export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const PASSKEY_COOKIE = 'studio_passkey';
/** More than anyone carries; a cap keeps one account's list (and its sign-in options) small. */
export const MAX_PASSKEYS = 20;
const TOKEN_RE = /^[a-z2-7]{40}$/;
/**
 * Ed25519, ES256 and RS256: what every passkey provider makes, verified by node:crypto on every
 * Node version we run on. The library would offer ML-DSA first (post-quantum: 3 KB signatures,
 * verified only by Node's newest WebCrypto), which Chromium's authenticator then picks.
 */
const ALGORITHMS = [-8, -7, -257];

export const CHALLENGE_GONE = 'This passkey request has expired or was already used. Try again.';
export const NOT_THIS_ACCOUNTS = 'That passkey is not one of this account’s. Use another, or another way to sign in.';
export const UNKNOWN_PASSKEY = 'That passkey is not registered here. Sign in with your username and password.';
export const NO_PASSKEYS = 'This account has no passkey.';

/** The relying party: this site as its visitors open it. */
export function relyingParty(ctx: Pick<APIContext, 'url' | 'request'>): { id: string; origin: string } {
  const origin = publicOrigin(ctx);
  return { id: new URL(origin).hostname, origin };
}

/** Keeps the challenge for this browser (replacing its earlier one) and sets the cookie that names it. */
async function keepChallenge(ctx: Ctx, purpose: ChallengePurpose, userId: string | null, challenge: string): Promise<void> {
  const earlier = ctx.cookies.get(PASSKEY_COOKIE)?.value;
  const token = generateSessionToken();
  const expiresAt = new Date(Date.now() + CHALLENGE_TTL_MS);
  await db.transaction(async (tx) => {
    await tx.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, new Date()));
    if (earlier && TOKEN_RE.test(earlier)) await tx.delete(passkeyChallenges).where(eq(passkeyChallenges.id, sessionIdFromToken(earlier)));
    await tx.insert(passkeyChallenges).values({ id: sessionIdFromToken(token), purpose, userId, challenge, expiresAt });
  });
  ctx.cookies.set(PASSKEY_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: '/', secure: isHttps(ctx), expires: expiresAt });
}

/**
 * Uses up this browser's challenge for `purpose` (and `userId`, when the ceremony is for a known
 * account): one delete, so two answers to one challenge cannot both be checked against it.
 */
async function takeChallenge(ctx: Ctx, purpose: ChallengePurpose, userId: string | null): Promise<string> {
  const token = ctx.cookies.get(PASSKEY_COOKIE)?.value;
  if (!token || !TOKEN_RE.test(token)) throw new HttpError(400, CHALLENGE_GONE);
  const [row] = await db
    .delete(passkeyChallenges)
    .where(and(eq(passkeyChallenges.id, sessionIdFromToken(token)), eq(passkeyChallenges.purpose, purpose), gt(passkeyChallenges.expiresAt, new Date())))
    .returning({ challenge: passkeyChallenges.challenge, userId: passkeyChallenges.userId });
  ctx.cookies.set(PASSKEY_COOKIE, '', { httpOnly: true, sameSite: 'lax', path: '/', secure: isHttps(ctx), maxAge: 0 });
  if (!row || row.userId !== userId) throw new HttpError(400, CHALLENGE_GONE);
  return row.challenge;
}

/** What the library could not accept, as a message people (and integrators) can act on. */
function refused(e: unknown): HttpError {
  if (e instanceof HttpError) return e;
  const why = e instanceof Error ? e.message : String(e);
  return new HttpError(400, `The passkey was not accepted: ${why.slice(0, 200)}`);
}

const infoOf = (row: typeof passkeys.$inferSelect): PasskeyInfo => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  backedUp: row.backedUp,
});

export async function listPasskeys(userId: string): Promise<PasskeyInfo[]> {
  const rows = await db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.id));
  return rows.map(infoOf);
}

export async function passkeyCount(userId: string, tx: Pick<typeof db, 'select'> = db): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return row?.n ?? 0;
}

/** A new passkey's first step: the options the browser's `navigator.credentials.create` takes. */
export async function registrationOptions(ctx: Ctx, user: { id: string; username: string; displayName: string }): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await db.select({ id: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, user.id));
  if (existing.length >= MAX_PASSKEYS) throw new HttpError(400, `An account holds at most ${MAX_PASSKEYS} passkeys. Remove one you no longer use first.`);
  const rp = relyingParty(ctx);
  const { companyName } = await getBrandingSettings();
  const options = await generateRegistrationOptions({
    rpName: companyName,
    rpID: rp.id,
    userName: user.username,
    userDisplayName: user.displayName || user.username,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    // The device already holding one of this account's passkeys says so instead of making another.
    excludeCredentials: existing.map((k) => ({ id: k.id, transports: k.transports ?? undefined })),
    // Discoverable (for the username-less sign-in) and verified by PIN or biometrics.
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  await keepChallenge(ctx, 'register', user.id, options.challenge);
  return options;
}

/** A new key the browser answered with, checked: what is stored of it. */
export interface CheckedPasskey {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[] | null;
  backedUp: boolean;
}

/** A new passkey's last step, first half: the browser's answer checked against this browser's challenge. */
export async function checkNewPasskey(ctx: Ctx, userId: string, response: PasskeyResponse): Promise<CheckedPasskey> {
  const expectedChallenge = await takeChallenge(ctx, 'register', userId);
  const rp = relyingParty(ctx);
  try {
    const checked = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
    if (!checked.verified) throw new HttpError(400, 'The passkey was not accepted: its answer did not verify.');
    const { credential, credentialBackedUp } = checked.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? null,
      backedUp: credentialBackedUp,
    };
  } catch (e) {
    throw refused(e);
  }
}

/** The second half, in the caller's transaction: stores the checked key under its name. */
export async function insertPasskey(tx: Tx, userId: string, name: string, key: CheckedPasskey): Promise<PasskeyInfo> {
  const [clash] = await tx.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.credentialId, key.credentialId)).limit(1);
  if (clash) throw new HttpError(409, 'This passkey is already registered.');
  if ((await passkeyCount(userId, tx)) >= MAX_PASSKEYS) throw new HttpError(400, `An account holds at most ${MAX_PASSKEYS} passkeys. Remove one you no longer use first.`);
  const [row] = await tx
    .insert(passkeys)
    .values({ userId, name, ...key })
    .returning();
  return infoOf(row!);
}

/**
 * The options for `navigator.credentials.get`: the account's own passkeys when `userId` is
 * given (a second step, or confirming a change), else any passkey of this site (username-less).
 */
export async function authenticationOptions(ctx: Ctx, userId: string | null): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const rp = relyingParty(ctx);
  let allowCredentials: { id: string; transports?: string[] }[] | undefined;
  if (userId) {
    const keys = await db.select({ id: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, userId));
    if (!keys.length) throw new HttpError(400, NO_PASSKEYS);
    allowCredentials = keys.map((k) => ({ id: k.id, transports: k.transports ?? undefined }));
  }
  const options = await generateAuthenticationOptions({ rpID: rp.id, allowCredentials, userVerification: userId ? 'preferred' : 'required' });
  await keepChallenge(ctx, userId ? 'factor' : 'sign-in', userId, options.challenge);
  return options;
}

/**
 * Checks a passkey's answer to this browser's challenge: of `userId`'s passkeys when given, else
 * of any account's (username-less; then the device must have verified its user). The signature
 * counter moves on (one that does not, from an authenticator that counts, is a cloned key).
 * Answers the account the passkey belongs to.
 */
export async function verifyPasskey(ctx: Ctx, userId: string | null, response: PasskeyResponse): Promise<{ userId: string; passkeyId: number }> {
  const expectedChallenge = await takeChallenge(ctx, userId ? 'factor' : 'sign-in', userId);
  const [key] = await db.select().from(passkeys).where(eq(passkeys.credentialId, response.id)).limit(1);
  if (!key) throw new HttpError(400, userId ? NOT_THIS_ACCOUNTS : UNKNOWN_PASSKEY);
  if (userId && key.userId !== userId) throw new HttpError(400, NOT_THIS_ACCOUNTS);
  // The account the device says the passkey is for must be the one it is stored under.
  const handle = response.response.userHandle;
  if (handle && isoBase64URL.toUTF8String(handle) !== key.userId) throw new HttpError(400, UNKNOWN_PASSKEY);
  const rp = relyingParty(ctx);
  let newCounter: number;
  try {
    const checked = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: key.credentialId, publicKey: isoBase64URL.toBuffer(key.publicKey), counter: key.counter, transports: (key.transports ?? undefined) as never },
      requireUserVerification: !userId,
    });
    if (!checked.verified) throw new HttpError(400, 'The passkey was not accepted: its signature did not verify.');
    newCounter = checked.authenticationInfo.newCounter;
  } catch (e) {
    throw refused(e);
  }
  // Conditional on the counter read: of two answers racing with one key, one moves it on.
  const moved = await db
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: new Date() })
    .where(and(eq(passkeys.id, key.id), eq(passkeys.counter, key.counter)))
    .returning({ id: passkeys.id });
  if (!moved.length) throw new HttpError(400, 'The passkey was not accepted: it was used at the same moment elsewhere. Try again.');
  return { userId: key.userId, passkeyId: key.id };
}

export async function renamePasskey(tx: Tx, userId: string, id: number, name: string): Promise<PasskeyInfo> {
  const [row] = await tx
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning();
  if (!row) throw new HttpError(404, 'Passkey not found');
  return infoOf(row);
}

/** Removes one of the account's passkeys; answers its name. */
export async function deletePasskey(tx: Tx, userId: string, id: number): Promise<string> {
  const [row] = await tx
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ name: passkeys.name });
  if (!row) throw new HttpError(404, 'Passkey not found');
  return row.name;
}

/** Every passkey (and open challenge) of the account goes: an administrator's reset. */
export async function deleteAllPasskeys(tx: Tx, userId: string): Promise<number> {
  await tx.delete(passkeyChallenges).where(eq(passkeyChallenges.userId, userId));
  const gone = await tx.delete(passkeys).where(eq(passkeys.userId, userId)).returning({ id: passkeys.id });
  return gone.length;
}
