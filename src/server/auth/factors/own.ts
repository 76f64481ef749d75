// The signed-in account whose own factors a Security screen changes: the staff user or the
// client login of the request (401 otherwise), with the session the request came with.
import type { APIContext } from 'astro';
import { requireClient, requireStaff } from '../guard.ts';
import type { SessionKind } from '../sessions.ts';
import type { FactorAccount } from './account.ts';
import type { AuditObject, AuditOrigin } from '../../audit/record.ts';
import { clientWho, staffWho } from './audit-rows.ts';

export interface OwnAccount {
  account: FactorAccount;
  /** The name an authenticator app lists the account under. */
  name: string;
  sessionId: string;
  /** The account as the audit log names its own factor changes (issue 56), as audit-rows.ts does. */
  who: { origin: AuditOrigin; object: AuditObject };
}

export function ownAccount(ctx: APIContext, kind: SessionKind): OwnAccount {
  if (kind === 'staff') {
    const user = requireStaff(ctx);
    return { account: { kind, id: user.id }, name: user.username, sessionId: ctx.locals.staffSession!.id, who: staffWho(ctx, user) };
  }
  const client = requireClient(ctx);
  return { account: { kind, id: client.id }, name: client.username, sessionId: ctx.locals.clientSession!.id, who: clientWho(ctx, client) };
}
