// Whether an open stream's holder still holds what opened it: the staff or client session (a
// sign-out or password change deletes it), an active account, the link and the visitor's pass
// (revoked, expired, password changed). The tailer asks on the events that say something
// changed; the heartbeat asks for everyone, for what ends without an event (an expiry).
import { and, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientSessions, clientUsers, clients, shareLinks, shareVisits, staffSessions } from '../../db/schema.ts';
import { loadRolesAndPermissions, loadStaffUser } from '../auth/principals.ts';
import type { Connection } from './hub.ts';

/** The streams among `conns` whose holder no longer holds a valid session, pass or link. */
export async function invalid(conns: Iterable<Connection>): Promise<Connection[]> {
  const list = [...conns];
  const now = new Date();
  const staffIds = [...new Set(list.flatMap((c) => (c.principal.kind === 'staff' ? [c.principal.sessionId] : [])))];
  const clientIds = [...new Set(list.flatMap((c) => (c.principal.kind === 'client' ? [c.principal.sessionId] : [])))];
  const visitIds = [...new Set(list.flatMap((c) => (c.principal.kind === 'link' ? [c.principal.visitId] : [])))];
  const staffOk = new Set(
    staffIds.length
      ? (await db.select({ id: staffSessions.id }).from(staffSessions).where(and(inArray(staffSessions.id, staffIds), gt(staffSessions.expiresAt, now)))).map((r) => r.id)
      : [],
  );
  const clientOk = new Set(
    clientIds.length
      ? (
          await db
            .select({ id: clientSessions.id })
            .from(clientSessions)
            .innerJoin(clientUsers, eq(clientUsers.id, clientSessions.clientUserId))
            .innerJoin(clients, eq(clients.id, clientUsers.clientId))
            .where(and(inArray(clientSessions.id, clientIds), gt(clientSessions.expiresAt, now), eq(clientUsers.isActive, true), eq(clients.isActive, true)))
        ).map((r) => r.id)
      : [],
  );
  const visitOk = new Set(
    visitIds.length
      ? (
          await db
            .select({ id: shareVisits.id })
            .from(shareVisits)
            .innerJoin(shareLinks, eq(shareLinks.id, shareVisits.linkId))
            .where(and(inArray(shareVisits.id, visitIds), gt(shareVisits.expiresAt, now), isNull(shareLinks.revokedAt), or(isNull(shareLinks.expiresAt), gt(shareLinks.expiresAt, now))))
        ).map((r) => r.id)
      : [],
  );
  return list.filter((c) => {
    const p = c.principal;
    if (p.kind === 'staff') return !staffOk.has(p.sessionId);
    if (p.kind === 'client') return !clientOk.has(p.sessionId);
    return !visitOk.has(p.visitId);
  });
}

/**
 * A staff member's permissions as they are now (roles changed), or null when the account is
 * gone or inactive (the stream then closes).
 */
export async function currentPermissions(userId: string): Promise<Set<string> | null> {
  const user = await loadStaffUser(userId);
  if (!user?.isActive) return null;
  const { permissions } = await loadRolesAndPermissions(userId);
  return new Set(permissions.map((p) => p.name));
}

/** Whether a link still lets its visitors take part in live sessions (comments allowed). */
export async function linkAllowsComments(linkId: number): Promise<boolean> {
  const [row] = await db.select({ allow: shareLinks.allowComment }).from(shareLinks).where(eq(shareLinks.id, linkId)).limit(1);
  return row?.allow ?? false;
}
