// The server key that keeps share-link addresses encrypted at rest (issue 32), so staff can
// copy a link's address again while the database holds no token in plain text. AES-256-GCM
// (node:crypto), a fresh 96-bit IV per address, the row's token hash as associated data (a
// ciphertext moved to another row does not open). Lookups stay by the token's SHA-256.
//
// The key is SHARE_LINK_KEY when set, else the key file (SHARE_LINK_KEY_FILE, default beside the
// database file), made on first start with mode 0600. A key file that cannot be read, or does
// not hold a key, stops start-up with a message naming it (checkShareLinkKey); so does one that
// other users of the machine may read or write (issue 40), unless ALLOW_OPEN_KEY_FILE=true,
// which starts with a warning.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { config, decodeShareLinkKey } from '../config.ts';

const FORMAT = 'v1';

export class ShareLinkKeyError extends Error {
  override name = 'ShareLinkKeyError';
}

function readKeyFile(file: string): Buffer {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw new ShareLinkKeyError(`SHARE_LINK_KEY_FILE: the share-link key file ${file} cannot be read (${code}). Fix its permissions, or set SHARE_LINK_KEY.`);
  }
  const key = decodeShareLinkKey(text);
  if (!key) throw new ShareLinkKeyError(`SHARE_LINK_KEY_FILE: the share-link key file ${file} is corrupt (it must hold 64 hex characters). Put the right file back, or set SHARE_LINK_KEY.`);
  return key;
}

/** Makes the key file unless it exists (`wx`: two processes starting at once agree on one key). */
function createKeyFile(file: string): boolean {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw new ShareLinkKeyError(`SHARE_LINK_KEY_FILE: the share-link key file ${file} cannot be created (${code}). Set SHARE_LINK_KEY_FILE to a writable place, or SHARE_LINK_KEY.`);
  }
}

let cached: Buffer | null = null;

/** The key; the key file is made when there is none yet (start-up has normally done so). */
export function shareLinkKey(): Buffer {
  if (cached) return cached;
  if (config.shareLinkKey) return (cached = config.shareLinkKey);
  if (!fs.existsSync(config.shareLinkKeyFile)) createKeyFile(config.shareLinkKeyFile);
  return (cached = readKeyFile(config.shareLinkKeyFile));
}

/**
 * What is wrong with the key file's permissions, or null: any access for the group or others
 * (a copy made with the usual umask is 0644, readable by every account on the machine). Not
 * judged on Windows, where Node reports no such bits.
 */
function openModeProblem(file: string): string | null {
  if (process.platform === 'win32') return null;
  const mode = fs.statSync(file).mode & 0o777;
  if (!(mode & 0o077)) return null;
  return `the share-link key file ${file} has mode 0${mode.toString(8)}: other users of this machine can ${mode & 0o022 ? 'change' : 'read'} it, and with it copy every share-link address. Run chmod 600 ${file}`;
}

/**
 * Start-up (scripts/start.mjs): the key must be there, readable, and readable by this user
 * alone. A missing key file is made, unless the database already holds addresses or
 * authenticator secrets (issue 56) encrypted with a key (then the file was lost: a new key could
 * not open them, so start-up stops and says how to go on). `warning` is for the start-up log
 * (an open file allowed by ALLOW_OPEN_KEY_FILE).
 */
export async function checkShareLinkKey(encrypted: () => Promise<{ addresses: number; secrets: number }>): Promise<{ created: string | null; warning: string | null }> {
  if (config.shareLinkKey) return { created: null, warning: null };
  const file = config.shareLinkKeyFile;
  if (!fs.existsSync(file)) {
    const { addresses, secrets } = await encrypted();
    if (addresses + secrets > 0) {
      const held = [addresses && `${addresses} share link address(es)`, secrets && `${secrets} authenticator app secret(s)`].filter(Boolean).join(' and ');
      throw new ShareLinkKeyError(
        `SHARE_LINK_KEY_FILE: the share-link key file ${file} is missing, but ${held} in the database were encrypted with it. ` +
          `Put the file back (or set SHARE_LINK_KEY), or, to give those up (staff then make each link a new address; people with an authenticator app sign in with a recovery code and set it up again, or an administrator resets it), create a new key: ` +
          `openssl rand -hex 32 > ${file} && chmod 600 ${file}`,
      );
    }
    if (createKeyFile(file)) {
      cached = null;
      shareLinkKey();
      return { created: file, warning: null };
    }
  }
  cached = null;
  shareLinkKey();
  const open = openModeProblem(file);
  if (open && !config.ALLOW_OPEN_KEY_FILE) throw new ShareLinkKeyError(`SHARE_LINK_KEY_FILE: ${open}, or set ALLOW_OPEN_KEY_FILE=true to start anyway.`);
  return { created: null, warning: open && `Warning: ${open} (started anyway: ALLOW_OPEN_KEY_FILE=true).` };
}

/** `v1:` + base64(IV 12 bytes | ciphertext | tag 16 bytes): AES-256-GCM with `aad` as associated data. */
export function seal(key: Buffer, plain: Uint8Array, aad: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return `${FORMAT}:${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64')}`;
}

/** What `seal` sealed, or null when it was not sealed with this key and `aad`. */
export function unseal(key: Buffer, stored: string, aad: string): Buffer | null {
  const [format, data] = stored.split(':');
  if (format !== FORMAT || !data) return null;
  const raw = Buffer.from(data, 'base64');
  if (raw.length < 12 + 16 + 1) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
  } catch {
    return null;
  }
}

/** A share link's address, bound to its row by the token hash (a ciphertext moved to another row does not open). */
export function encryptToken(token: string, tokenHash: string): string {
  return seal(shareLinkKey(), Buffer.from(token, 'utf8'), tokenHash);
}

/** The token, or null when it was not encrypted with this key for this row. */
export function decryptToken(stored: string, tokenHash: string): string | null {
  return unseal(shareLinkKey(), stored, tokenHash)?.toString('utf8') ?? null;
}
