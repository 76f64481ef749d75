// Authenticator secrets are kept encrypted (AES-256-GCM) so that a copy of the database alone
// (a backup, a dump, a stolen replica) does not give anyone the codes. The key is derived
// (HKDF-SHA256) from the server key that already lives beside the database and outside the
// backups (the share-link key: SHARE_LINK_KEY or its key file, src/server/sharing/link-key.ts),
// so there is no second key to make, copy to every process and lose. Derived, not the same key:
// a ciphertext of one use can never be opened as the other.
import { hkdfSync } from 'node:crypto';
import { seal, shareLinkKey, unseal } from '../../sharing/link-key.ts';
import { accountLabel, type FactorAccount } from './account.ts';

let derived: Buffer | null = null;

function totpKey(): Buffer {
  return (derived ??= Buffer.from(hkdfSync('sha256', shareLinkKey(), Buffer.alloc(0), 'studio/totp-secret/v1', 32)));
}

export function sealSecret(secret: Uint8Array, account: FactorAccount): string {
  return seal(totpKey(), secret, accountLabel(account));
}

/** The secret, or null when it was not sealed with this key for this account. */
export function openSecret(stored: string, account: FactorAccount): Uint8Array | null {
  const plain = unseal(totpKey(), stored, accountLabel(account));
  return plain ? new Uint8Array(plain) : null;
}
