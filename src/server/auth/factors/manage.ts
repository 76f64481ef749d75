// An account's own second factors (the Security screens) and an administrator's reset.
import type { APIContext } from 'astro';
import { and, eq, isNotNull } from 'drizzle-orm';
import { db } from '../../../db/index.ts';
import { passkeys, recoveryCodes, totpFactors } from '../../../db/schema.ts';
import { getBrandingSettings } from '../../settings/read.ts';
import { invalidateAllSessions, keepOnlySession } from '../sessions.ts';
import { browserTrusted, forgetTrustedBrowsers, trustedBrowserCount } from '../devices.ts';
import type { PasskeyAdded, PasskeyInfo, PasskeyResponse, SecondFactorStatus, TotpEnrolment, VerifySecondFactor } from '../../../shared/schemas/second-factor.ts';
import { ownedBy, type FactorAccount } from './account.ts';
import { endPendingSignInsOf } from './pending.ts';
import { recoveryCodesLeft, replaceRecoveryCodes } from './recovery.ts';
import { checkFactor } from './sign-in.ts';
import { hasSecondFactor } from './state.ts';
import { checkNewPasskey, deleteAllPasskeys, deletePasskey, insertPasskey, listPasskeys, passkeyCount, renamePasskey } from './passkeys.ts';
import { confirmTotp, confirmedTotp, startTotpEnrolment } from './totp.ts';
import type { OwnAccount } from './own.ts';
import { audit, auditIn } from '../../audit/record.ts';
import { HttpError } from '../../http.ts';

export async function secondFactorStatus(ctx: APIContext, account: FactorAccount, required: boolean): Promise<SecondFactorStatus> {
  const totp = await confirmedTotp(account);
  const keys = account.kind === 'staff' ? await listPasskeys(String(account.id)) : [];
  const any = !!totp || keys.length > 0;
  return {
    required,
    totp: totp && { since: totp.confirmedAt.toISOString(), lastUsedAt: totp.lastUsedAt?.toISOString() ?? null },
    passkeys: keys,
    recoveryCodesLeft: any ? await recoveryCodesLeft(account) : 0,
    trustedBrowsers: any ? await trustedBrowserCount(account.kind, account.id) : 0,
    thisBrowserTrusted: any ? await browserTrusted(ctx.cookies, account.kind, account.id) : false,
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

/** A proof as the API takes it: a code, or a passkey's answer to a challenge for this account. */
export type OwnProof = { code: string } | { passkey: PasskeyResponse };

const proofOf = (proof: OwnProof): VerifySecondFactor => ('code' in proof ? asProof(proof.code) : { factor: 'passkey', response: proof.passkey, trustBrowser: false });

/**
 * Proof of a factor for one of the account's own changes. A refused proof (a wrong or used code,
 * or the throttle) is a row of its own, as a refused second step is: someone holding only the
 * session is trying codes.
 */
async function proveOwnFactor(ctx: APIContext, own: OwnAccount, given: OwnProof, change: 'remove' | 'recovery_codes' | 'remove_passkey'): Promise<void> {
  const proof = proofOf(given);
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

/** What stands in for factors goes with the last of them: recovery codes, pending sign-ins, trusted browsers. */
async function deleteStandIns(tx: Tx, account: FactorAccount): Promise<void> {
  await tx.delete(recoveryCodes).where(ownedBy(recoveryCodes, account));
  await endPendingSignInsOf(account, tx);
  await forgetTrustedBrowsers(account.kind, account.id, tx);
}

/** After one factor went in `tx`: when no app and no passkey is left, what stood in for them goes too. */
async function afterFactorRemoved(tx: Tx, account: FactorAccount): Promise<void> {
  const [app] = await tx.select({ id: totpFactors.id }).from(totpFactors).where(ownedBy(totpFactors, account)).limit(1);
  const keys = account.kind === 'staff' ? await passkeyCount(String(account.id), tx) : 0;
  if (!app && !keys) await deleteStandIns(tx, account);
}

async function deleteFactors(tx: Tx, account: FactorAccount): Promise<void> {
  await tx.delete(totpFactors).where(ownedBy(totpFactors, account));
  await deleteStandIns(tx, account);
}

/**
 * The account's own removal of its authenticator app: only with proof of a factor (a stolen
 * session alone cannot). Sessions stay. When passkeys remain they still ask for a second step,
 * so the recovery codes and trusted browsers stay with them. Audited.
 */
export async function removeOwnFactors(ctx: APIContext, own: OwnAccount, proof: OwnProof): Promise<void> {
  await proveOwnFactor(ctx, own, proof, 'remove');
  await db.transaction(async (tx) => {
    await tx.delete(totpFactors).where(ownedBy(totpFactors, own.account));
    await afterFactorRemoved(tx, own.account);
    await auditIn(tx, own.who.origin, { kind: 'factor.removed', object: own.who.object, factor: 'totp' });
  });
}

/**
 * A new passkey (staff). The account's first factor is set up as an authenticator app is:
 * ten recovery codes (answered once), the account's other sessions end and this one counts as
 * made with the passkey, no browser skips it yet. Audited.
 */
export async function addOwnPasskey(ctx: APIContext, own: OwnAccount, name: string, response: PasskeyResponse): Promise<PasskeyAdded> {
  const { account, sessionId, who } = own;
  const key = await checkNewPasskey(ctx, String(account.id), response);
  const first = !(await hasSecondFactor(account));
  return db.transaction(async (tx) => {
    const passkey = await insertPasskey(tx, String(account.id), name, key);
    let codes: string[] | null = null;
    if (first) {
      codes = await replaceRecoveryCodes(tx, account);
      await keepOnlySession(account.kind, account.id, sessionId, 'passkey', tx);
      await endPendingSignInsOf(account, tx);
      await forgetTrustedBrowsers(account.kind, account.id, tx);
    }
    await auditIn(tx, who.origin, { kind: 'factor.added', object: who.object, factor: 'passkey', detail: { name, ...(codes ? { recoveryCodes: codes.length } : {}) } });
    return { passkey, recoveryCodes: codes };
  });
}

export async function renameOwnPasskey(own: OwnAccount, id: number, name: string): Promise<PasskeyInfo> {
  return db.transaction(async (tx) => {
    const passkey = await renamePasskey(tx, String(own.account.id), id, name);
    await auditIn(tx, own.who.origin, { kind: 'factor.renamed', object: own.who.object, factor: 'passkey', detail: { name } });
    return passkey;
  });
}

/**
 * Removes one of the account's passkeys, with proof of a factor (a code, or a passkey, this one
 * too). The last factor gone takes the recovery codes and trusted browsers with it. Audited.
 */
export async function removeOwnPasskey(ctx: APIContext, own: OwnAccount, id: number, proof: OwnProof): Promise<void> {
  const userId = String(own.account.id);
  const [mine] = await db.select({ id: passkeys.id }).from(passkeys).where(and(eq(passkeys.id, id), eq(passkeys.userId, userId))).limit(1);
  if (!mine) throw new HttpError(404, 'Passkey not found');
  await proveOwnFactor(ctx, own, proof, 'remove_passkey');
  await db.transaction(async (tx) => {
    const name = await deletePasskey(tx, userId, id);
    await afterFactorRemoved(tx, own.account);
    await auditIn(tx, own.who.origin, { kind: 'factor.removed', object: own.who.object, factor: 'passkey', detail: { name } });
  });
}

/** New recovery codes (the old ones stop working), with proof of the factor. Audited. */
export async function renewRecoveryCodes(ctx: APIContext, own: OwnAccount, proof: OwnProof): Promise<string[]> {
  await proveOwnFactor(ctx, own, proof, 'recovery_codes');
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
    const keys = account.kind === 'staff' ? await deleteAllPasskeys(tx, String(account.id)) : 0;
    return !!row || keys > 0;
  });
  await invalidateAllSessions(account.kind, account.id);
  return had;
}

/** Staff ids holding a confirmed authenticator app or a passkey (the users list). */
export async function staffWithSecondFactor(): Promise<Set<string>> {
  const rows = await db.select({ userId: totpFactors.userId }).from(totpFactors).where(and(isNotNull(totpFactors.userId), isNotNull(totpFactors.confirmedAt)));
  const keys = await db.selectDistinct({ userId: passkeys.userId }).from(passkeys);
  return new Set([...rows.map((r) => r.userId!), ...keys.map((k) => k.userId)]);
}
