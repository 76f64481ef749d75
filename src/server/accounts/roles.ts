// Roles, permissions and the links between them. The protected role (Client) never changes.
import { asc, eq, ne, and, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { permissions, rolePermissions, roles, userRoles, users } from '../../db/schema.ts';
import { HttpError, notFound } from '../http.ts';
import type { PermissionInput, PermissionRow, RoleInput, RoleRow } from '../../shared/schemas/roles.ts';
import { ADMIN_ROLE, beyondActor } from './users.ts';
import { looksTheSame } from './name-key.ts';
import type { Actor } from '../auth/guard.ts';
import { PERMISSIONS } from '../../db/seed-data.ts';
import { auditIn, type AuditOrigin } from '../audit/record.ts';

/** The permissions the app itself checks; only ones created on /admin/roles can be deleted. */
const BUILT_IN_PERMISSIONS = new Set(PERMISSIONS.map((p) => p.name));

type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];
type Reader = typeof db | Tx;

const permissionColumns = { id: permissions.id, name: permissions.name, description: permissions.description };

export async function listRoles(r: Reader = db): Promise<RoleRow[]> {
  const roleRows = await r
    .select({ id: roles.id, name: roles.name, description: roles.description, isProtected: roles.isProtected, requiresSecondFactor: roles.requiresSecondFactor })
    .from(roles)
    .orderBy(asc(roles.id));
  const links = await r
    .select({ roleId: rolePermissions.roleId, ...permissionColumns })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .orderBy(asc(permissions.name));
  return roleRows.map((role) => ({
    ...role,
    permissions: links.filter((l) => l.roleId === role.id).map(({ roleId: _r, ...p }) => p),
  }));
}

export async function getRole(id: number, r: Reader = db): Promise<RoleRow> {
  const role = (await listRoles(r)).find((x) => x.id === id);
  if (!role) throw notFound('Role not found');
  return role;
}

/** 403 for the protected role: it is read-only whatever the caller's permissions. */
function assertEditable(role: { name: string; isProtected: boolean }, action: string) {
  if (role.isProtected) {
    throw new HttpError(403, `The ${role.name} role is protected and read-only: it can't ${action}.`);
  }
}

async function findRole(tx: Reader, id: number) {
  const [role] = await tx.select().from(roles).where(eq(roles.id, id)).limit(1);
  if (!role) throw notFound('Role not found');
  return role;
}

/**
 * 409 when another role's name reads the same: case, compatibility forms (fullwidth), invisible
 * characters and Unicode's confusables (UTS #39) all count (looksTheSame), so nobody can plant a
 * second "Admin". Used by create and rename alike. Roles are few, so they are compared in full.
 */
async function assertRoleNameFree(tx: Tx, name: string, exceptId?: number) {
  const others = await tx.select({ id: roles.id, name: roles.name }).from(roles).where(exceptId ? ne(roles.id, exceptId) : undefined);
  const clash = others.find((r) => looksTheSame(r.name, name));
  if (!clash) return;
  const alike = clash.name.toLowerCase() === name.toLowerCase() ? '' : ` (as "${clash.name}": names that look the same count as the same)`;
  throw new HttpError(409, `A role named "${name}" already exists${alike}`);
}

export async function createRole(input: RoleInput, origin: AuditOrigin) {
  const id = await db.transaction(async (tx) => {
    await assertRoleNameFree(tx, input.name);
    const [row] = await tx.insert(roles).values({ name: input.name, description: input.description }).returning({ id: roles.id });
    await auditIn(tx, origin, { kind: 'role.created', object: { type: 'role', id: row!.id, name: input.name } });
    return row!.id;
  });
  return getRole(id);
}

export async function updateRole(id: number, input: RoleInput, origin: AuditOrigin) {
  await db.transaction(async (tx) => {
    const role = await findRole(tx, id);
    assertEditable(role, 'be edited');
    // Page guards and the sign-in landing look the Admin role up by name.
    if (role.name === ADMIN_ROLE && input.name !== ADMIN_ROLE) {
      throw new HttpError(409, `The ${ADMIN_ROLE} role can't be renamed: the admin area relies on its name.`);
    }
    await assertRoleNameFree(tx, input.name, id);
    await tx.update(roles).set({ name: input.name, description: input.description }).where(eq(roles.id, id));
    const changed = [role.name !== input.name && 'name', (role.description ?? '') !== (input.description ?? '') && 'description'].filter(Boolean);
    if (changed.length) await auditIn(tx, origin, { kind: 'role.updated', object: { type: 'role', id, name: input.name }, detail: { changed, ...(role.name !== input.name ? { was: role.name } : {}) } });
  });
  return getRole(id);
}

export async function deleteRole(id: number, origin: AuditOrigin) {
  await db.transaction(async (tx) => {
    const role = await findRole(tx, id);
    assertEditable(role, 'be deleted');
    if (role.name === ADMIN_ROLE) {
      const holders = await tx
        .select({ id: users.id })
        .from(userRoles)
        .innerJoin(users, eq(users.id, userRoles.userId))
        .where(and(eq(userRoles.roleId, id), eq(users.isActive, true)))
        .limit(1);
      if (holders.length) throw new HttpError(409, `The ${ADMIN_ROLE} role can't be deleted while active users hold it.`);
    }
    await tx.delete(roles).where(eq(roles.id, id));
    await auditIn(tx, origin, { kind: 'role.deleted', object: { type: 'role', id, name: role.name } });
  });
}

/**
 * The role's second-factor policy (issue 56). Like its permissions, changed only by someone
 * holding every permission the role holds: loosening it for a stronger role is theirs to decide.
 */
export async function setRoleSecondFactorPolicy(id: number, required: boolean, actor: Actor): Promise<RoleRow> {
  const role = await getRole(id);
  assertEditable(role, 'have its sign-in policy changed');
  const beyond = beyondActor(actor, role.permissions.map((p) => p.name));
  if (beyond.length) throw new HttpError(403, `You can't change the sign-in policy of "${role.name}": it holds permissions you don't have (${beyond.join(', ')}).`);
  await db.transaction(async (tx) => {
    await tx.update(roles).set({ requiresSecondFactor: required }).where(eq(roles.id, id));
    if (role.requiresSecondFactor !== required) await auditIn(tx, actor.origin, { kind: 'role.updated', object: { type: 'role', id, name: role.name }, detail: { changed: ['requires_second_factor'], requiresSecondFactor: required } });
  });
  return getRole(id);
}

export async function listPermissions(): Promise<PermissionRow[]> {
  const rows = await db.select(permissionColumns).from(permissions).orderBy(asc(permissions.name));
  return rows.map((p) => ({ ...p, builtIn: BUILT_IN_PERMISSIONS.has(p.name) }));
}

/**
 * Creates a permission and gives it to the Admin role at once: Admin holds every permission,
 * which is what lets Admins hand it on (nobody grants a permission they don't hold).
 */
export async function createPermission(input: PermissionInput, origin: AuditOrigin): Promise<PermissionRow> {
  return db.transaction(async (tx) => {
    const [clash] = await tx.select({ id: permissions.id }).from(permissions).where(eq(permissions.name, input.name)).limit(1);
    if (clash) throw new HttpError(409, `A permission named "${input.name}" already exists`);
    const [row] = await tx.insert(permissions).values({ name: input.name, description: input.description }).returning(permissionColumns);
    const [admin] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, ADMIN_ROLE)).limit(1);
    if (admin) await tx.insert(rolePermissions).values({ roleId: admin.id, permissionId: row!.id }).onConflictDoNothing();
    await auditIn(tx, origin, { kind: 'permission.created', object: { type: 'permission', id: row!.id, name: input.name } });
    return row!;
  });
}

/**
 * Deletes a custom permission (issue 19 #17): built-in ones are refused (403), and one that a
 * role still holds answers 409 naming those roles.
 */
export async function deletePermission(id: number, origin: AuditOrigin): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select(permissionColumns).from(permissions).where(eq(permissions.id, id)).limit(1);
    if (!row) throw notFound('Permission not found');
    if (BUILT_IN_PERMISSIONS.has(row.name)) throw new HttpError(403, `"${row.name}" is a built-in permission and cannot be deleted`);
    const holders = await tx
      .select({ name: roles.name })
      .from(rolePermissions)
      .innerJoin(roles, eq(roles.id, rolePermissions.roleId))
      // Admin is given every permission as it is created, so it does not count as a holder.
      .where(and(eq(rolePermissions.permissionId, id), ne(roles.name, ADMIN_ROLE)))
      .orderBy(asc(roles.name));
    if (holders.length) {
      const names = holders.map((h) => `"${h.name}"`).join(', ');
      throw new HttpError(409, `"${row.name}" is held by ${holders.length === 1 ? 'the role' : 'the roles'} ${names}. Remove it from ${holders.length === 1 ? 'that role' : 'those roles'} first.`);
    }
    await tx.delete(permissions).where(eq(permissions.id, id));
    await auditIn(tx, origin, { kind: 'permission.deleted', object: { type: 'permission', id, name: row.name } });
  });
}

async function findPermission(tx: Reader, id: number) {
  const [row] = await tx.select({ id: permissions.id, name: permissions.name }).from(permissions).where(eq(permissions.id, id)).limit(1);
  if (!row) throw notFound('Permission not found');
  return row;
}

/**
 * Gives a role a permission (idempotent). Returns the role with its permissions. Only a
 * permission the actor holds can be given, or edit:roles would be a key to everything.
 */
export async function assignPermission(roleId: number, permissionId: number, actor: Actor) {
  await db.transaction(async (tx) => {
    const role = await findRole(tx, roleId);
    const permission = await findPermission(tx, permissionId);
    assertEditable(role, 'be given permissions');
    if (beyondActor(actor, [permission.name]).length) {
      throw new HttpError(403, `You can't give the permission ${permission.name}: you don't hold it yourself.`);
    }
    const added = await tx.insert(rolePermissions).values({ roleId, permissionId }).onConflictDoNothing().returning({ roleId: rolePermissions.roleId });
    if (added.length) await auditIn(tx, actor.origin, { kind: 'permission.granted', object: { type: 'role', id: roleId, name: role.name }, detail: { permission: permission.name } });
  });
  return getRole(roleId);
}

/** Takes a permission from a role (idempotent). Returns the role with its permissions. */
export async function removePermission(roleId: number, permissionId: number, origin: AuditOrigin) {
  await db.transaction(async (tx) => {
    const role = await findRole(tx, roleId);
    const permission = await findPermission(tx, permissionId);
    assertEditable(role, 'lose permissions');
    const removed = await tx
      .delete(rolePermissions)
      .where(and(eq(rolePermissions.roleId, roleId), eq(rolePermissions.permissionId, permissionId)))
      .returning({ roleId: rolePermissions.roleId });
    if (removed.length) await auditIn(tx, origin, { kind: 'permission.revoked', object: { type: 'role', id: roleId, name: role.name }, detail: { permission: permission.name } });
  });
  return getRole(roleId);
}
