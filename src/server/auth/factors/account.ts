// Whose second factors: a staff user (uuid) or a client login (integer id). Every factor table
// has one column for each (exactly one filled), so deleting the account deletes its factors.
import { eq, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { SessionKind } from '../sessions.ts';

export interface FactorAccount {
  kind: SessionKind;
  id: string | number;
}

interface OwnedTable {
  userId: SQLiteColumn;
  clientUserId: SQLiteColumn;
}

/** The row's owner columns, for an insert. */
export function ownerValues(account: FactorAccount): { userId: string | null; clientUserId: number | null } {
  return account.kind === 'staff' ? { userId: String(account.id), clientUserId: null } : { userId: null, clientUserId: Number(account.id) };
}

/** The condition "belongs to this account". */
export function ownedBy(table: OwnedTable, account: FactorAccount): SQL {
  return account.kind === 'staff' ? eq(table.userId, String(account.id)) : eq(table.clientUserId, Number(account.id));
}

/** Associated data binding an encrypted secret to its account (a copy moved to another account does not open). */
export const accountLabel = (account: FactorAccount) => `${account.kind}:${account.id}`;
