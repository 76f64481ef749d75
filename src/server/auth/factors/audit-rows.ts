// The second factors' rows in the audit log (issue 56): the second step of a sign-in (a right
// code, a wrong one, a throttled one), a trusted browser standing in for the code, and an
// account's own factor changes. The person is the account signing in or changing its factors,
// named as origin.ts names a signed-in one; the row is about that account (a staff user, or the
// client of a client login, so a client's data export lists them).
import type { APIContext } from 'astro';
import { db } from '../../../db/index.ts';
import type { HttpError } from '../../http.ts';
import { audit, type AuditObject, type AuditOrigin } from '../../audit/record.ts';
import { anonymousOrigin, clientOrigin, staffOrigin } from '../../audit/origin.ts';
import { loadClientPrincipal, loadStaffUser } from '../principals.ts';
import type { FactorAccount } from './account.ts';
import { passkeys } from '../../../db/schema.ts';
import { eq } from 'drizzle-orm';

/** The account as its rows name it. */
export interface AuditedAccount {
  origin: AuditOrigin;
  object: AuditObject;
  /** The login's username, as the password's sign-in rows keep it. */
  login: string;
  side: 'staff' | 'client';
}

type Ctx = Pick<APIContext, 'locals' | 'request'> & Partial<Pick<APIContext, 'clientAddress'>>;

/** A staff user as the rows name them: the person and the object (the user). */
export function staffWho(ctx: Ctx, user: NonNullable<App.Locals['user']>): { origin: AuditOrigin; object: AuditObject } {
  const origin = staffOrigin(ctx, user);
  return { origin, object: { type: 'user', id: user.id, name: origin.actor.name } };
}

/** A client login as the rows name it: the person (its client) and the object (the client). */
export function clientWho(ctx: Ctx, login: NonNullable<App.Locals['clientUser']>): { origin: AuditOrigin; object: AuditObject } {
  const origin = clientOrigin(ctx, login);
  return { origin, object: { type: 'client', id: login.clientId, name: origin.actor.name } };
}

/** The account's names for its rows: the request's own signed-in account when it is that one, else looked up. */
export async function auditedAccount(ctx: Ctx, account: FactorAccount): Promise<AuditedAccount> {
  if (account.kind === 'staff') {
    const user = ctx.locals.user?.id === String(account.id) ? ctx.locals.user : await loadStaffUser(String(account.id));
    if (!user) return { origin: anonymousOrigin(ctx), object: { type: 'user', id: account.id }, login: '', side: 'staff' };
    return { ...staffWho(ctx, user), login: user.username, side: 'staff' };
  }
  const own = ctx.locals.clientUser;
  const login = own?.id === Number(account.id) ? own : await loadClientPrincipal(Number(account.id));
  if (!login) return { origin: anonymousOrigin(ctx), object: { type: 'client_login', id: account.id }, login: '', side: 'client' };
  return { ...clientWho(ctx, login), login: login.username, side: 'client' };
}

/**
 * A sign-in finished by a factor ('totp', 'recovery') or by a browser trusted to skip it
 * ('trusted-browser'), written after the password's row.
 */
export async function auditFactorSignIn(ctx: Ctx, account: FactorAccount, factor: string, detail: Record<string, unknown> = {}): Promise<void> {
  const a = await auditedAccount(ctx, account);
  await audit(db, a.origin, { kind: 'sign_in.succeeded', object: a.object, factor, detail: { as: a.side, login: a.login, ...detail } });
}

/** A second step refused: throttled (429), or the code was wrong, used or of no factor the account has (the reason is the message it was told). */
export async function auditFactorRefused(ctx: Ctx, account: FactorAccount, factor: string, refusal: HttpError): Promise<void> {
  const a = await auditedAccount(ctx, account);
  await refusalRow(a.origin, a.object, factor, refusal, { as: a.side, login: a.login });
}

/** sign_in.throttled (429), else sign_in.failed with the message given as its reason. */
async function refusalRow(origin: AuditOrigin, object: AuditObject | null, factor: string, refusal: HttpError, detail: Record<string, unknown>): Promise<void> {
  if (refusal.status === 429) await audit(db, origin, { kind: 'sign_in.throttled', object, factor, detail });
  else await audit(db, origin, { kind: 'sign_in.failed', object, factor, detail: { ...detail, reason: refusal.message } });
}

/**
 * A username-less passkey sign-in refused: about the passkey's account when the passkey is one
 * of ours (someone holds it, or a copy), else a row of an anonymous attempt.
 */
export async function auditPasskeySignInRefused(ctx: Ctx, credentialId: string, refusal: HttpError): Promise<void> {
  const [key] = await db.select({ userId: passkeys.userId }).from(passkeys).where(eq(passkeys.credentialId, credentialId)).limit(1);
  if (key) return auditFactorRefused(ctx, { kind: 'staff', id: key.userId }, 'passkey', refusal);
  await refusalRow(anonymousOrigin(ctx), null, 'passkey', refusal, { as: 'staff', login: '' });
}
