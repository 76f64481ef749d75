// Recovery codes: ten single-use codes made when an authenticator app is set up (and again on
// request, which voids the old ones), shown once. 80 random bits each, so their SHA-256 alone is
// stored: unlike a password, nobody can guess one from its hash, and a code is found by its hash.
import { and, count, eq, isNull } from 'drizzle-orm';
import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';
import { db } from '../../../db/index.ts';
import { recoveryCodes } from '../../../db/schema.ts';
import { HttpError } from '../../http.ts';
import { ownedBy, ownerValues, type FactorAccount } from './account.ts';

export const RECOVERY_CODE_COUNT = 10;
export const WRONG_RECOVERY_CODE = 'That recovery code is not right. Check it against your saved list.';
export const USED_RECOVERY_CODE = 'That recovery code has already been used. Each one works once: use another from your list.';

type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];

const hashOf = (code: string) => encodeHexLowerCase(sha256(new TextEncoder().encode(code)));

/** "abcdefgh…" as people copy it: four groups of four. */
const grouped = (code: string) => code.match(/.{4}/g)!.join('-');

/** Voids the account's codes and makes ten new ones; answers them (the only time they are seen). */
export async function replaceRecoveryCodes(tx: Tx, account: FactorAccount): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(10))));
  await tx.delete(recoveryCodes).where(ownedBy(recoveryCodes, account));
  await tx.insert(recoveryCodes).values(codes.map((c) => ({ ...ownerValues(account), codeHash: hashOf(c) })));
  return codes.map(grouped);
}

/** Uses one code (`code` compacted: 16 base32 characters). 401 when wrong or used before. */
export async function useRecoveryCode(account: FactorAccount, code: string): Promise<void> {
  const [row] = await db
    .select({ id: recoveryCodes.id, usedAt: recoveryCodes.usedAt })
    .from(recoveryCodes)
    .where(and(ownedBy(recoveryCodes, account), eq(recoveryCodes.codeHash, hashOf(code))))
    .limit(1);
  if (!row) throw new HttpError(401, WRONG_RECOVERY_CODE);
  // Conditional, so two requests with the same code cannot both use it.
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(recoveryCodes.id, row.id), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  if (!used.length) throw new HttpError(401, USED_RECOVERY_CODE);
}

export async function recoveryCodesLeft(account: FactorAccount): Promise<number> {
  const [row] = await db.select({ n: count() }).from(recoveryCodes).where(and(ownedBy(recoveryCodes, account), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}
