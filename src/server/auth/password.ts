import { hash, verify } from '@node-rs/argon2';

// argon2id with the parameters OWASP recommends (19 MiB, 2 passes); algorithm 2 = Argon2id.
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS as never);
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

// Verifying against this keeps the timing of "unknown user" close to "wrong password".
let dummy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hashPassword('not-a-real-password-but-same-cost');
  await verifyPassword(await dummy, password);
}
