// Authenticator apps (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits, as every app reads it).
// A code is accepted for the current step or one either side (clocks drift), and only once:
// the newest step accepted is stored, and that step and every older one are refused after it,
// in one conditional UPDATE, so two requests with the same code cannot both pass.
import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { createTOTPKeyURI, generateHOTP } from '@oslojs/otp';
import { encodeBase32UpperCaseNoPadding } from '@oslojs/encoding';
import { encode } from 'uqr';
import { timingSafeEqual } from 'node:crypto';
import { db } from '../../../db/index.ts';
import { totpFactors } from '../../../db/schema.ts';
import { HttpError } from '../../http.ts';
import { ownedBy, ownerValues, type FactorAccount } from './account.ts';
import { openSecret, sealSecret } from './secret-box.ts';
import type { TotpEnrolment } from '../../../shared/schemas/second-factor.ts';

export const STEP_SECONDS = 30;
export const DIGITS = 6;
/** Steps either side of now that are still accepted. */
export const SKEW_STEPS = 1;
/** How far back a code is recognised as expired (a clearer message than "wrong"). */
const EXPIRED_LOOKBACK_STEPS = 10;

export const WRONG_CODE = 'That code is not right. Enter the code your authenticator app shows now.';
export const EXPIRED_CODE = "That code has expired. Enter the code your authenticator app shows now (if it keeps happening, check that your phone's clock is set automatically).";
export const REPLAYED_CODE = 'That code (or a newer one) has already been used. Wait for your authenticator app to show the next code.';
export const NO_AUTHENTICATOR = 'This account has no authenticator app set up.';

export const currentStep = (nowMs = Date.now()) => Math.floor(nowMs / (STEP_SECONDS * 1000));

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The step `code` belongs to, searching now ± SKEW_STEPS and then back to the lookback (so an
 * expired code can be told apart), or null when it matches none.
 */
export function stepOfCode(key: Uint8Array, code: string, nowMs = Date.now()): { step: number; inWindow: boolean } | null {
  const now = currentStep(nowMs);
  for (let offset = -SKEW_STEPS; offset <= SKEW_STEPS; offset++) {
    if (same(generateHOTP(key, BigInt(now + offset), DIGITS), code)) return { step: now + offset, inWindow: true };
  }
  for (let offset = -SKEW_STEPS - 1; offset >= -EXPIRED_LOOKBACK_STEPS; offset--) {
    if (same(generateHOTP(key, BigInt(now + offset), DIGITS), code)) return { step: now + offset, inWindow: false };
  }
  return null;
}

/** The QR code of `text` as one SVG path (a module a unit), for the screens to draw in any theme. */
function qrPath(text: string): TotpEnrolment['qr'] {
  const { data, size } = encode(text, { ecc: 'M', border: 0 });
  let path = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return { size, path };
}

/**
 * Enrolment's first step: a new secret, kept unconfirmed until a code from it comes back, so
 * an enrolment abandoned half way changes nothing (sign-in asks for no code). Starting again
 * replaces the unconfirmed secret. 409 when an app is already set up (remove it first).
 */
export async function startTotpEnrolment(account: FactorAccount, accountName: string, issuer: string): Promise<TotpEnrolment> {
  const key = crypto.getRandomValues(new Uint8Array(20));
  await db.transaction(async (tx) => {
    const [existing] = await tx.select({ confirmedAt: totpFactors.confirmedAt }).from(totpFactors).where(ownedBy(totpFactors, account)).limit(1);
    if (existing?.confirmedAt) throw new HttpError(409, 'An authenticator app is already set up. Remove it first to set up another.');
    await tx.delete(totpFactors).where(and(ownedBy(totpFactors, account), isNull(totpFactors.confirmedAt)));
    await tx.insert(totpFactors).values({ ...ownerValues(account), secretEnc: sealSecret(key, account) });
  });
  const uri = createTOTPKeyURI(issuer, accountName, key, STEP_SECONDS, DIGITS);
  return { secret: encodeBase32UpperCaseNoPadding(key), uri, qr: qrPath(uri) };
}

type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];

async function keyOf(row: { secretEnc: string }, account: FactorAccount): Promise<Uint8Array> {
  const key = openSecret(row.secretEnc, account);
  // The server key changed since (a new key file): the app cannot be checked any more.
  if (!key) throw new HttpError(409, 'Your authenticator app can no longer be checked (the server key changed). Sign in with a recovery code and set it up again, or ask an administrator to reset it.');
  return key;
}

/** Marks `step` used unless it (or a newer one) already was. False when it was: a replay. */
async function claimStep(r: Tx | typeof db, id: number, step: number): Promise<boolean> {
  const claimed = await r
    .update(totpFactors)
    .set({ lastUsedStep: step, lastUsedAt: new Date() })
    .where(and(eq(totpFactors.id, id), or(isNull(totpFactors.lastUsedStep), lt(totpFactors.lastUsedStep, step))))
    .returning({ id: totpFactors.id });
  return claimed.length === 1;
}

/** Throws the 4xx that says what is wrong with `code` for this secret, or returns its step. */
function acceptedStep(key: Uint8Array, code: string, status: number): number {
  const found = stepOfCode(key, code);
  if (!found) throw new HttpError(status, WRONG_CODE);
  if (!found.inWindow) throw new HttpError(status, EXPIRED_CODE);
  return found.step;
}

/**
 * Enrolment's last step, in the caller's transaction: the code must come from the unconfirmed
 * secret; it is then confirmed (and its step used). 400 for a wrong code, 409 with nothing to confirm.
 */
export async function confirmTotp(tx: Tx, account: FactorAccount, code: string): Promise<void> {
  const [row] = await tx.select().from(totpFactors).where(ownedBy(totpFactors, account)).limit(1);
  if (row?.confirmedAt) throw new HttpError(409, 'Your authenticator app is already set up.');
  if (!row) throw new HttpError(409, 'Start setting up the authenticator app again: no setup is under way.');
  const step = acceptedStep(await keyOf(row, account), code, 400);
  await claimStep(tx, row.id, step);
  await tx.update(totpFactors).set({ confirmedAt: new Date() }).where(eq(totpFactors.id, row.id));
}

/** A code at sign-in (or to prove the factor): 401 wrong, expired or replayed. */
export async function verifyTotp(account: FactorAccount, code: string): Promise<void> {
  const [row] = await db
    .select()
    .from(totpFactors)
    .where(and(ownedBy(totpFactors, account), isNotNull(totpFactors.confirmedAt)))
    .limit(1);
  if (!row) throw new HttpError(401, NO_AUTHENTICATOR);
  const step = acceptedStep(await keyOf(row, account), code, 401);
  if (!(await claimStep(db, row.id, step))) throw new HttpError(401, REPLAYED_CODE);
}

/** The confirmed app, if any. */
export async function confirmedTotp(account: FactorAccount): Promise<{ confirmedAt: Date; lastUsedAt: Date | null } | null> {
  const [row] = await db
    .select({ confirmedAt: totpFactors.confirmedAt, lastUsedAt: totpFactors.lastUsedAt })
    .from(totpFactors)
    .where(and(ownedBy(totpFactors, account), isNotNull(totpFactors.confirmedAt)))
    .limit(1);
  return row?.confirmedAt ? { confirmedAt: row.confirmedAt, lastUsedAt: row.lastUsedAt } : null;
}
