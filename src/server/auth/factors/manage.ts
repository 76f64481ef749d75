// An account's own second factors (the Security screens) and an administrator's reset.
import type { APIContext } from 'astro';
import { and, isNotNull } from 'drizzle-orm';
import { db } from '../../../db/index.ts';
import { recoveryCodes, totpFactors } from '../../../db/schema.ts';
import { getBrandingSettings } from '../../settings/read.ts';
import { invalidateAllSessions, keepOnlySession } from '../sessions.ts';
import { browserTrusted, forgetTrustedBrowsers, trustedBrowserCount } from '../devices.ts';
import type { SecondFactorStatus, TotpEnrolment, VerifySecondFactor } from '../../../shared/schemas/second-factor.ts';
import { ownedBy, type FactorAccount } from './account.ts';
import { endPendingSignInsOf } from './pending.ts';
import { recoveryCodesLeft, replaceRecoveryCodes } from './recovery.ts';
import { checkFactor } from './sign-in.ts';
import { confirmTotp, confirmedTotp, startTotpEnrolment } from './totp.ts';
import type { OwnAccount } from './own.ts';
import { audit, auditIn } from '../../audit/record.ts';
import { HttpError } from '../../http.ts';

export async function secondFactorStatus(ctx: APIContext, account: FactorAccount, required: boolean): Promise<SecondFactorStatus> {
  const totp = await confirmedTotp(account);
  return {
    required,
    totp: totp && { since: totp.confirmedAt.toISOString(), lastUsedAt: totp.lastUsedAt?.toISOString() ?? null },
    recoveryCodesLeft: totp ? await recoveryCodesLeft(account) : 0,
    trustedBrowsers: totp ? await trustedBrowserCount(account.kind, account.id) : 0,
    thisBrowserTrusted: totp ? await browserTrusted(ctx.cookies, account.kind, account.id) : false,
  };
}

/** Enrolment's first step; the app shows the account under the studio's name. */
export async function beginTotpEnrolment(account: FactorAccount, accountName: string): Promise<TotpEnrolment> {
  const { companyName } = await getBrandingSettings();
  return startTotpEnrolment(account, accountName, companyName);
}

/**
 * Enrolment's last step: the app is confirmed, ten recovery codes are made (answered once), the
 * account's other sessions end (one a stolen password made before must not outlive the factor)
 * and this one counts as made with the app; no browser skips the new factor yet. Audited.
 */
export async function finishTotpEnrolment(own: OwnAccount, code: string): Promise<string[]> {
  const { account, sessionId, who } = own;
  return db.transaction(async (tx) => {
    await confirmTotp(tx, account, code);
    const codes = await replaceRecoveryCodes(tx, account);
    await keepOnlySession(account.kind, account.id, sessionId, 'totp', tx);
    await endPendingSignInsOf(account, tx);
    await forgetTrustedBrowsers(account.kind, account.id, tx);
    await auditIn(tx, who.origin, { kind: 'factor.added', object: who.object, factor: 'totp', detail: { recoveryCodes: codes.length } });
    return codes;
  });
}

/** A code the person typed, as the factor it must be: six digits are an app's, the rest a recovery code. */
function asProof(code: string): VerifySecondFactor {
  return /^\d{6}$/.test(code) ? { factor: 'totp', code, trustBrowser: false } : { factor: 'recovery', code, trustBrowser: false };
}

/**
 * Proof of a factor for one of the account's own changes. A refused proof (a wrong or used code,
 * or the throttle) is a row of its own, as a refused second step is: someone holding only the
 * session is trying codes.
 */
async function proveOwnFactor(ctx: APIContext, own: OwnAccount, code: string, change: 'remove' | 'recovery_codes'): Promise<void> {
  const proof = asProof(code);
  try {
    await checkFactor(ctx, own.account, proof);
  } catch (e) {
    if (e instanceof HttpError) {
      const detail = { change, reason: e.message, throttled: e.status === 429 };
      await audit(db, own.who.origin, { kind: 'factor.proof_refused', object: own.who.object, factor: proof.factor, detail });
    }
    throw e;
  }
}

type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];

async function deleteFactors(tx: Tx, account: FactorAccount): Promise<void> {
  await tx.delete(totpFactors).where(ownedBy(totpFactors, account));
  await tx.delete(recoveryCodes).where(ownedBy(recoveryCodes, account));
  await endPendingSignInsOf(account, tx);
  await forgetTrustedBrowsers(account.kind, account.id, tx);
}

/** The account's own removal: only with proof of the factor (a stolen session alone cannot). Sessions stay. Audited. */
export async function removeOwnFactors(ctx: APIContext, own: OwnAccount, code: string): Promise<void> {
  await proveOwnFactor(ctx, own, code, 'remove');
  await db.transaction(async (tx) => {
    await deleteFactors(tx, own.account);
    await auditIn(tx, own.who.origin, { kind: 'factor.removed', object: own.who.object, factor: 'totp' });
  });
}

/** New recovery codes (the old ones stop working), with proof of the factor. Audited. */
export async function renewRecoveryCodes(ctx: APIContext, own: OwnAccount, code: string): Promise<string[]> {
  await proveOwnFactor(ctx, own, code, 'recovery_codes');
  return db.transaction(async (tx) => {
    const codes = await replaceRecoveryCodes(tx, own.account);
    await auditIn(tx, own.who.origin, { kind: 'factor.recovery_codes_renewed', object: own.who.object, factor: 'recovery', detail: { recoveryCodes: codes.length } });
    return codes;
  });
}

/** No browser of the account skips the second factor any more. Audited. */
export async function forgetBrowsers(own: OwnAccount): Promise<void> {
  await db.transaction(async (tx) => {
    await forgetTrustedBrowsers(own.account.kind, own.account.id, tx);
    await auditIn(tx, own.who.origin, { kind: 'factor.browsers_forgotten', object: own.who.object, factor: 'trusted-browser' });
  });
}

/**
 * An administrator's reset (a lost phone and lost codes): every factor goes and the account is
 * signed out everywhere, so whoever held a session or a trusted browser signs in afresh.
 * Answers whether there was anything to reset.
 */
export async function resetSecondFactors(account: FactorAccount): Promise<boolean> {
  const had = await db.transaction(async (tx) => {
    const [row] = await tx.select({ id: totpFactors.id }).from(totpFactors).where(ownedBy(totpFactors, account)).limit(1);
    await deleteFactors(tx, account);
    return !!row;
  });
  await invalidateAllSessions(account.kind, account.id);
  return had;
}

/** Staff ids holding a confirmed authenticator app (the users list). */
export async function staffWithSecondFactor(): Promise<Set<string>> {
  const rows = await db.select({ userId: totpFactors.userId }).from(totpFactors).where(and(isNotNull(totpFactors.userId), isNotNull(totpFactors.confirmedAt)));
  return new Set(rows.map((r) => r.userId!));
}
