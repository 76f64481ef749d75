// Who hears about an event: client logins of the item's clients, or staff who may see media.
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientUsers, clients, media, mediaClients, permissions, rolePermissions, userRoles, users } from '../../db/schema.ts';
import type { NotifyMode } from '../../shared/schemas/notifications.ts';

export interface Recipient {
  id: string;
  address: string;
  mode: Exclude<NotifyMode, 'off'>;
}

/** Every client the item is assigned to (its own client and the assignment links). */
export async function assignedClientIds(mediaId: number): Promise<number[]> {
  const [own] = await db.select({ clientId: media.clientId }).from(media).where(eq(media.id, mediaId)).limit(1);
  const links = await db.select({ clientId: mediaClients.clientId }).from(mediaClients).where(eq(mediaClients.mediaId, mediaId));
  return [...new Set([own?.clientId, ...links.map((l) => l.clientId)].filter((id): id is number => id != null))];
}

/** Active logins of active clients whose mode is not 'off'. */
export async function clientRecipients(clientIds: number[]): Promise<Recipient[]> {
  if (!clientIds.length) return [];
  const rows = await db
    .select({ id: clientUsers.id, address: clientUsers.email, mode: clientUsers.notifyMode })
    .from(clientUsers)
    .innerJoin(clients, eq(clients.id, clientUsers.clientId))
    .where(and(inArray(clientUsers.clientId, clientIds), eq(clientUsers.isActive, true), eq(clients.isActive, true), ne(clientUsers.notifyMode, 'off')))
    .orderBy(clientUsers.id);
  return rows.map((r) => ({ id: String(r.id), address: r.address, mode: r.mode as Recipient['mode'] }));
}

/** Active staff holding view:media (through any role) whose mode is not 'off'. */
export async function staffRecipients(): Promise<Recipient[]> {
  const rows = await db
    .select({ id: users.id, address: users.email, mode: users.notifyMode })
    .from(users)
    .where(
      and(
        eq(users.isActive, true),
        ne(users.notifyMode, 'off'),
        sql`exists (select 1 from ${userRoles} ur
          join ${rolePermissions} rp on rp.role_id = ur.role_id
          join ${permissions} p on p.id = rp.permission_id
          where ur.user_id = ${users.id} and p.name = 'view:media')`,
      ),
    )
    .orderBy(users.email);
  return rows.map((r) => ({ id: r.id, address: r.address, mode: r.mode as Recipient['mode'] }));
}
