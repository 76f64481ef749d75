// What second factors an account holds, and what that means for one of its sessions.
//
// The rule that no path signs in with a password alone where a factor is due is kept here,
// at every request, not only at the sign-in endpoints: a session of an account that holds a
// factor counts only if it was made with one (the session row says which), so a session made
// by any other path (registration, a password change, one a stolen password made before the
// factor was set up) opens nothing. And a staff user whose role requires a factor and who has
// none may do nothing but set one up (the middleware's enrolFirst).
import type { FactorKind } from '../../../shared/schemas/second-factor.ts';
import type { FactorAccount } from './account.ts';
import { loadRolesAndPermissions } from '../principals.ts';
import { recoveryCodesLeft } from './recovery.ts';
import { confirmedTotp } from './totp.ts';
import { passkeyCount } from './passkeys.ts';

/** The account's own factors: an authenticator app, passkeys (staff only). Recovery codes stand in for these. */
async function ownFactors(account: FactorAccount): Promise<FactorKind[]> {
  const kinds: FactorKind[] = [];
  if (await confirmedTotp(account)) kinds.push('totp');
  if (account.kind === 'staff' && (await passkeyCount(String(account.id))) > 0) kinds.push('passkey');
  return kinds;
}

/** The factors a pending sign-in of this account may be finished with (empty: a password is enough). */
export async function accountFactors(account: FactorAccount): Promise<FactorKind[]> {
  // Recovery codes stand in for a factor; alone they are none.
  const kinds = await ownFactors(account);
  if (!kinds.length) return [];
  return (await recoveryCodesLeft(account)) > 0 ? [...kinds, 'recovery'] : kinds;
}

export async function hasSecondFactor(account: FactorAccount): Promise<boolean> {
  return (await ownFactors(account)).length > 0;
}

/**
 * 'ok'; 'enrol' (the policy requires a factor and the account has none: only enrolment and
 * sign-out are open); 'void' (the account has a factor and the session was made without one:
 * it counts for nothing).
 */
export type Standing = 'ok' | 'enrol' | 'void';

export async function sessionStanding(account: FactorAccount, sessionFactor: string | null, required: boolean): Promise<Standing> {
  if (sessionFactor && !required) return 'ok';
  const enrolled = await hasSecondFactor(account);
  if (enrolled && !sessionFactor) return 'void';
  if (required && !enrolled) return 'enrol';
  return 'ok';
}

/** Whether a role of the account requires a second factor (client logins choose for themselves). */
export async function policyRequires(account: FactorAccount): Promise<boolean> {
  if (account.kind !== 'staff') return false;
  return (await loadRolesAndPermissions(String(account.id))).roles.some((r) => r.requiresSecondFactor);
}

/** A staff user who must set up a factor before anything else (the sign-in answer says so). */
export async function enrolmentDue(userId: string): Promise<boolean> {
  const account: FactorAccount = { kind: 'staff', id: userId };
  return (await policyRequires(account)) && !(await hasSecondFactor(account));
}
