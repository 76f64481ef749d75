// Signing in, after the password was right (accounts.ts): a session at once when the account
// has no second factor (or this browser is trusted to skip it), else a pending sign-in that the
// second step finishes with one of the account's factors. Every sign-in path that makes a
// session goes through `startSession`, which records the factor the session was made with.
//
// The second step is one endpoint per session kind taking `{ factor, …that factor's proof }`:
// each factor kind has a verifier in VERIFIERS. A passkey answers a challenge issued for the
// pending sign-in's account first (POST /api/login/verify/passkey-options).
import type { APIContext } from 'astro';
import { HttpError, clientIp } from '../../http.ts';
import { isHttps } from '../../proxy.ts';
import { createSession, setSessionCookie } from '../sessions.ts';
import { browserTrusted, rememberDevice, trustBrowser, trustedDeviceId } from '../devices.ts';
import { ADDRESS_MAX, ADDRESS_WINDOW_MS, THROTTLED_MESSAGE, release, reserveAttempt, reserveCounters } from '../throttle.ts';
import type { FactorKind, PasskeyResponse, SecondStep, VerifySecondFactor } from '../../../shared/schemas/second-factor.ts';
import type { FactorAccount } from './account.ts';
import { PENDING_EXPIRED, beginPendingSignIn, endPendingSignIn, pendingAccount } from './pending.ts';
import { accountFactors } from './state.ts';
import { verifyTotp } from './totp.ts';
import { useRecoveryCode } from './recovery.ts';
import { verifyPasskey } from './passkeys.ts';
import { auditFactorRefused, auditFactorSignIn, auditPasskeySignInRefused } from './audit-rows.ts';
import { loadStaffUser } from '../principals.ts';

type Ctx = APIContext;

/** How a session came to be: the factor checked, 'trusted-browser', or null (a password alone). */
export type SessionFactor = FactorKind | 'trusted-browser' | null;

/** The session cookie, and the device cookie (the throttle's, and "trust this browser" when asked). */
export async function startSession(ctx: Ctx, account: FactorAccount, secondFactor: SessionFactor, trust = false): Promise<void> {
  const secure = isHttps(ctx);
  const { token, expiresAt } = await createSession(account.kind, account.id, secondFactor);
  setSessionCookie(ctx.cookies, account.kind, token, expiresAt, secure);
  const device = await rememberDevice(ctx.cookies, account.kind, account.id, secure);
  if (trust) await trustBrowser(device);
}

/** The 202 answer: the password was right, a factor is awaited. */
export function secondStepAnswer(factors: FactorKind[]): SecondStep {
  const message = factors.includes('totp') ? 'Enter the code from your authenticator app.' : 'Use your passkey to finish signing in.';
  return { message, secondFactor: { factors } };
}

/**
 * After a right password: signs in and answers null, or begins a pending sign-in and answers
 * the factors it awaits. A new password sign-in replaces this browser's earlier pending one.
 */
export async function afterPassword(ctx: Ctx, account: FactorAccount): Promise<FactorKind[] | null> {
  const secure = isHttps(ctx);
  await endPendingSignIn(ctx.cookies, account.kind, secure);
  const factors = await accountFactors(account);
  if (!factors.length) {
    await startSession(ctx, account, null);
    return null;
  }
  if (await browserTrusted(ctx.cookies, account.kind, account.id)) {
    await startSession(ctx, account, 'trusted-browser');
    await auditFactorSignIn(ctx, account, 'trusted-browser');
    return null;
  }
  await beginPendingSignIn(ctx.cookies, account, secure);
  return factors;
}

/** One verifier per factor kind: throws a 4xx naming what is wrong, or returns when the proof holds. */
const VERIFIERS: { [K in FactorKind]: (ctx: Ctx, account: FactorAccount, input: Extract<VerifySecondFactor, { factor: K }>) => Promise<void> } = {
  totp: (_ctx, account, input) => verifyTotp(account, input.code),
  recovery: (_ctx, account, input) => useRecoveryCode(account, input.code),
  passkey: async (ctx, account, input) => {
    await verifyPasskey(ctx, String(account.id), input.response);
  },
};

/**
 * A proof of one of the account's factors, counted by the sign-in throttle before it is checked
 * (its own counters, `{kind}-code`: a right password clears the password's counters, and must
 * not clear the codes'). Used by the second step and by the account's own changes.
 */
export async function checkFactor(ctx: Ctx, account: FactorAccount, input: VerifySecondFactor): Promise<void> {
  const factors = await accountFactors(account);
  if (!factors.includes(input.factor)) {
    const missing = { recovery: `No recovery codes are left on this account: use your authenticator app${account.kind === 'staff' ? ' or a passkey' : ''}.`, totp: 'This account has no authenticator app set up.', passkey: 'This account has no passkey.' };
    throw new HttpError(400, missing[input.factor]);
  }
  const device = await trustedDeviceId(ctx.cookies, account.kind, account.id);
  const reservation = await reserveAttempt(`${account.kind}-code`, String(account.id), account.id, clientIp(ctx), device);
  await (VERIFIERS[input.factor] as (c: Ctx, a: FactorAccount, i: VerifySecondFactor) => Promise<void>)(ctx, account, input);
  await release(reservation);
}

/**
 * The second step: the pending sign-in's account, once its factor is proven, signs in. Each
 * outcome is a row of the audit log (audit-rows.ts), written before the answer goes.
 */
export async function finishSignIn(ctx: Ctx, kind: FactorAccount['kind'], input: VerifySecondFactor): Promise<FactorAccount> {
  const account = await pendingAccount(ctx.cookies, kind);
  if (!account) throw new HttpError(401, PENDING_EXPIRED);
  try {
    await checkFactor(ctx, account, input);
  } catch (e) {
    if (e instanceof HttpError) await auditFactorRefused(ctx, account, input.factor, e);
    throw e;
  }
  await endPendingSignIn(ctx.cookies, kind, isHttps(ctx));
  await startSession(ctx, account, input.factor, input.trustBrowser);
  await auditFactorSignIn(ctx, account, input.factor, { trustBrowser: input.trustBrowser });
  return account;
}

/** The factors this browser's pending sign-in awaits, or null: the sign-in page reloaded during the second step shows it again. */
export async function pendingFactors(ctx: Pick<APIContext, 'cookies'>, kind: FactorAccount['kind']): Promise<FactorKind[] | null> {
  const account = await pendingAccount(ctx.cookies, kind);
  const factors = account ? await accountFactors(account) : [];
  return factors.length ? factors : null;
}

/**
 * A sign-in with a passkey alone, without a username or password: the passkey names its account
 * and the device has verified its user (PIN or biometrics), so it is a sign-in with a second
 * factor. Refused answers count against the address (the sign-in throttle's address counter,
 * a scope of its own). Each outcome is a row of the audit log.
 */
export async function signInWithPasskey(ctx: Ctx, response: PasskeyResponse): Promise<FactorAccount> {
  const where = clientIp(ctx) ?? 'unknown';
  const ids = await reserveCounters([{ key: `passkey:ip:${where}`, max: ADDRESS_MAX, windowMs: ADDRESS_WINDOW_MS }], THROTTLED_MESSAGE);
  let userId: string;
  try {
    ({ userId } = await verifyPasskey(ctx, null, response));
    const user = await loadStaffUser(userId);
    // As for a password: an inactive account's answer names nothing about the account.
    if (!user?.isActive) throw new HttpError(401, 'This passkey cannot sign in. Sign in with your username and password.');
  } catch (e) {
    if (e instanceof HttpError) await auditPasskeySignInRefused(ctx, response.id, e);
    throw e;
  }
  await release({ ids, pairKey: `passkey:ip:${where}` });
  const account: FactorAccount = { kind: 'staff', id: userId };
  await endPendingSignIn(ctx.cookies, 'staff', isHttps(ctx));
  await startSession(ctx, account, 'passkey');
  await auditFactorSignIn(ctx, account, 'passkey', { usernameless: true });
  return account;
}
