// Loads the signed-in staff user (with role and permission names) or client user.
import { eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientUsers, clients, permissions, rolePermissions, roles, userRoles, users } from '../../db/schema.ts';

export interface StaffUser {
  id: string;
  username: string;
  email: string;
  forename: string;
  surname: string;
  displayName: string;
  isActive: boolean;
  createdAt: Date;
}

export interface ClientPrincipal {
  id: number;
  clientId: number;
  username: string;
  email: string;
  name: string;
}

export const publicUserColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  forename: users.forename,
  surname: users.surname,
  displayName: users.displayName,
  isActive: users.isActive,
  createdAt: users.createdAt,
};

export async function loadStaffUser(id: string): Promise<StaffUser | null> {
  const [row] = await db.select(publicUserColumns).from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function loadRolesAndPermissions(
  userId: string,
): Promise<{ roles: { id: number; name: string; requiresSecondFactor: boolean }[]; permissions: { id: number; name: string }[] }> {
  const roleRows = await db
    .select({ id: roles.id, name: roles.name, requiresSecondFactor: roles.requiresSecondFactor })
    .from(userRoles)
    .innerJoin(roles, eq(userRoles.roleId, roles.id))
    .where(eq(userRoles.userId, userId))
    .orderBy(roles.name);
  const permRows = await db
    .selectDistinct({ id: permissions.id, name: permissions.name })
    .from(userRoles)
    .innerJoin(rolePermissions, eq(rolePermissions.roleId, userRoles.roleId))
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(userRoles.userId, userId))
    .orderBy(permissions.name);
  return { roles: roleRows, permissions: permRows };
}

export async function loadClientPrincipal(clientUserId: number): Promise<(ClientPrincipal & { isActive: boolean }) | null> {
  const [row] = await db
    .select({
      id: clientUsers.id,
      clientId: clientUsers.clientId,
      username: clientUsers.username,
      email: clientUsers.email,
      name: clients.name,
      isActive: clientUsers.isActive,
      clientActive: clients.isActive,
    })
    .from(clientUsers)
    .innerJoin(clients, eq(clients.id, clientUsers.clientId))
    .where(eq(clientUsers.id, clientUserId))
    .limit(1);
  if (!row) return null;
  const { clientActive, ...rest } = row;
  return { ...rest, isActive: row.isActive && clientActive };
}
