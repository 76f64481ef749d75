// Password rules (issue 53), following NIST SP 800-63B rev. 4 (2025): a length, no composition
// rules, and a check against passwords that are common or expected. They apply when a password
// is set (a new account, a change, a reset, the first admin from ADMIN_PASSWORD); existing
// passwords keep working. Staff sign in with a password alone, and rev. 4 asks 15 characters of
// such a password; a client login sees only that client's media, so 8 (rev. 4's floor for a
// password used with a second factor) with the same check. docs/security.md says more.
import { z } from './zod.ts';
import { COMMON_PASSWORDS } from './common-passwords.ts';

export type PasswordKind = 'staff' | 'client';

export const PASSWORD_MIN: Record<PasswordKind, number> = { staff: 15, client: 8 };
/** Long enough for any passphrase; argon2 hashes it whatever its length. */
export const PASSWORD_MAX = 1024;

/** What the forms say beside the field. */
export const PASSWORD_HINT: Record<PasswordKind, string> = {
  staff: `At least ${PASSWORD_MIN.staff} characters: a few unrelated words make a strong password that is easy to type. Common passwords are refused.`,
  client: `At least ${PASSWORD_MIN.client} characters. Common passwords are refused.`,
};

export const PASSWORD_TOO_COMMON = 'This password is too common or too easy to guess: choose another (a few unrelated words work well)';
export const PASSWORD_IS_NAME = 'The password must not be the username or email address';

let common: Set<string> | null = null;

/** NIST counts each Unicode code point as one character. */
export const passwordLength = (password: string) => [...password].length;

/** In the common list (any case), or one run said again and again (aaaaaaaa, qwertyqwerty): no longer than the run. */
export function isCommonPassword(password: string): boolean {
  const p = password.toLowerCase();
  common ??= new Set(COMMON_PASSWORDS.split('\n'));
  return common.has(p) || /^(.+?)\1+$/su.test(p);
}

/** Why `password` may not be set for an account of this kind, or null when it may. */
export function passwordProblem(password: string, kind: PasswordKind, account: { username?: string; email?: string } = {}): string | null {
  if (passwordLength(password) < PASSWORD_MIN[kind]) return `Password must be at least ${PASSWORD_MIN[kind]} characters`;
  if (passwordLength(password) > PASSWORD_MAX) return `Password must be at most ${PASSWORD_MAX} characters`;
  if (isCommonPassword(password)) return PASSWORD_TOO_COMMON;
  const p = password.trim().toLowerCase();
  const names = [account.username, account.email, account.email?.split('@')[0]].map((n) => n?.trim().toLowerCase()).filter((n) => !!n);
  if (names.includes(p)) return PASSWORD_IS_NAME;
  return null;
}

/** A new password of this kind (length and the common list; the account's names are checked with `checkAccountPassword`). */
export const newPassword = (kind: PasswordKind) =>
  z.string({ error: 'Password is required' }).superRefine((p, ctx) => {
    const problem = passwordProblem(p, kind);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** For an object schema holding the password with the account's username and email: not one of those. */
export function checkAccountPassword(kind: PasswordKind, field = 'password') {
  return (v: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const password = v[field];
    if (typeof password !== 'string' || !password) return;
    const username = typeof v.username === 'string' ? v.username : undefined;
    const email = typeof v.email === 'string' ? v.email : undefined;
    if (passwordProblem(password, kind, { username, email }) === PASSWORD_IS_NAME) ctx.addIssue({ code: 'custom', message: PASSWORD_IS_NAME, path: [field] });
  };
}
