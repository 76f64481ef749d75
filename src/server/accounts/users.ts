// Staff user accounts: listing, creation, edits, role sets and deletion, with the rules that
// keep the studio administrable (no self-deletion, never zero active Admins).
import { and, asc, count, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { permissions, rolePermissions, roles, userRoles, users } from '../../db/schema.ts';
import { HttpError, notFound } from '../http.ts';
import { hashPassword } from '../auth/password.ts';
import { invalidateAllSessions } from '../auth/sessions.ts';
import { publicUserColumns } from '../auth/principals.ts';
import type { Actor } from '../auth/guard.ts';
import type { CreateUser, UpdateUser, UserRoleRef } from '../../shared/schemas/users.ts';
import { audit, auditIn } from '../audit/record.ts';
import { resetSecondFactors, staffWithSecondFactor } from '../auth/factors/manage.ts';

type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];
type Reader = typeof db | Tx;

export const ADMIN_ROLE = 'Admin';
export const LAST_ADMIN =
  'This is the last active Admin. Give another active user the Admin role first, so the studio keeps an administrator.';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Staff ids are UUIDs; anything else names no user (404, like parseId). */
export function parseUserId(value: string | undefined): string {
  if (!value || !UUID.test(value)) throw notFound('User not found');
  return value.toLowerCase();
}

async function rolesByUser(r: Reader, userIds?: string[]): Promise<Map<string, (UserRoleRef & { requiresSecondFactor: boolean })[]>> {
  const rows = await r
    .select({ userId: userRoles.userId, id: roles.id, name: roles.name, requiresSecondFactor: roles.requiresSecondFactor })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(userIds ? inArray(userRoles.userId, userIds) : undefined)
    .orderBy(asc(roles.name));
  const map = new Map<string, (UserRoleRef & { requiresSecondFactor: boolean })[]>();
  for (const { userId, id, name, requiresSecondFactor } of rows) {
    const list = map.get(userId) ?? [];
    list.push({ id, name, requiresSecondFactor });
    map.set(userId, list);
  }
  return map;
}

/** A user's row as the users screen shows it: roles, and whether a second factor is set up and required (issue 56). */
function userRow<T extends { id: string }>(u: T, held: (UserRoleRef & { requiresSecondFactor: boolean })[], withFactor: Set<string>) {
  return {
    ...u,
    roles: held.map(({ id, name }) => ({ id, name })),
    secondFactor: withFactor.has(u.id),
    secondFactorRequired: held.some((r) => r.requiresSecondFactor),
  };
}

export async function listUsers() {
  const rows = await db.select(publicUserColumns).from(users).orderBy(asc(users.createdAt), asc(users.username));
  const byUser = await rolesByUser(db);
  const withFactor = await staffWithSecondFactor();
  return rows.map((u) => userRow(u, byUser.get(u.id) ?? [], withFactor));
}

export async function getUser(id: string, r: Reader = db) {
  const [row] = await r.select(publicUserColumns).from(users).where(eq(users.id, id)).limit(1);
  if (!row) throw notFound('User not found');
  const byUser = await rolesByUser(r, [id]);
  return userRow(row, byUser.get(id) ?? [], await staffWithSecondFactor());
}

/** 409 naming whichever of username or email another account already uses (case-insensitive). */
async function assertUnique(tx: Tx, input: { username: string; email: string }, exceptId?: string) {
  const clash = await tx
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(
      and(
        or(sql`lower(${users.username}) = lower(${input.username})`, sql`lower(${users.email}) = lower(${input.email})`),
        exceptId ? ne(users.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (!clash.length) return;
  if (clash[0]!.username.toLowerCase() === input.username.toLowerCase()) {
    throw new HttpError(409, `The username "${input.username}" is already taken`);
  }
  throw new HttpError(409, `The email "${input.email}" is already used by another user`);
}

/** Active users holding the Admin role, other than `exceptId`. */
async function otherActiveAdmins(tx: Tx, exceptId: string): Promise<number> {
  const [{ n }] = await tx
    .select({ n: count() })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .innerJoin(users, eq(users.id, userRoles.userId))
    .where(and(eq(roles.name, ADMIN_ROLE), eq(users.isActive, true), ne(users.id, exceptId)));
  return n;
}

async function isActiveAdmin(tx: Tx, userId: string): Promise<boolean> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(users.id, userId), eq(users.isActive, true), eq(roles.name, ADMIN_ROLE)))
    .limit(1);
  return rows.length > 0;
}

async function assertNotLastAdmin(tx: Tx, userId: string) {
  if ((await isActiveAdmin(tx, userId)) && (await otherActiveAdmins(tx, userId)) === 0) {
    throw new HttpError(409, LAST_ADMIN);
  }
}

/** Permissions among `names` the actor does not hold. */
export function beyondActor(actor: Actor, names: Iterable<string>): string[] {
  return [...new Set(names)].filter((n) => !actor.permissions.includes(n)).sort();
}

async function permissionsOfRoles(r: Reader, roleIds: number[]): Promise<Map<number, { name: string; permissions: string[] }>> {
  const map = new Map<number, { name: string; permissions: string[] }>();
  if (!roleIds.length) return map;
  const rows = await r
    .select({ roleId: roles.id, roleName: roles.name, permission: permissions.name })
    .from(roles)
    .leftJoin(rolePermissions, eq(rolePermissions.roleId, roles.id))
    .leftJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(inArray(roles.id, roleIds));
  for (const row of rows) {
    const entry = map.get(row.roleId) ?? { name: row.roleName, permissions: [] };
    if (row.permission) entry.permissions.push(row.permission);
    map.set(row.roleId, entry);
  }
  return map;
}

/**
 * Nobody may act on an account that holds permissions they lack: changing its password or
 * roles would hand them those permissions (or lock a more powerful user out).
 */
async function assertWithinActor(r: Reader, actor: Actor, userId: string) {
  if (userId === actor.id) return;
  const held = await r
    .select({ role: roles.name, permission: permissions.name, username: users.username })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .leftJoin(rolePermissions, eq(rolePermissions.roleId, roles.id))
    .leftJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(users.id, userId));
  if (!held.length) return;
  const names = held.map((h) => h.permission).filter((n): n is string => !!n);
  const missing = beyondActor(actor, names);
  if (missing.length) {
    throw new HttpError(403, `You can't change ${held[0]!.username}: they hold permissions you don't have (${missing.join(', ')}).`);
  }
}

const userName = (u: { displayName: string; username: string }) => `${u.displayName || u.username} (${u.username})`;

export async function createUser(input: CreateUser, actor: Actor) {
  const passwordHash = await hashPassword(input.password);
  const id = await db.transaction(async (tx) => {
    await assertUnique(tx, input);
    const [row] = await tx
      .insert(users)
      .values({
        username: input.username,
        email: input.email,
        passwordHash,
        forename: input.forename,
        surname: input.surname,
        displayName: input.displayName,
      })
      .returning({ id: users.id });
    await auditIn(tx, actor.origin, { kind: 'user.created', object: { type: 'user', id: row!.id, name: userName(input) }, detail: { email: input.email } });
    return row!.id;
  });
  return getUser(id);
}

/**
 * Updates a user's details, active flag and (when given) password. Deactivating or a new
 * password ends every session of that account. Returns whether sessions were ended.
 */
export async function updateUser(id: string, input: UpdateUser, actor: Actor) {
  const actorId = actor.id;
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const { endedSessions } = await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ isActive: users.isActive, username: users.username, email: users.email, forename: users.forename, surname: users.surname, displayName: users.displayName })
      .from(users)
      .where(eq(users.id, id))
      .limit(1);
    if (!current) throw notFound('User not found');
    await assertWithinActor(tx, actor, id);
    await assertUnique(tx, input, id);
    const deactivating = current.isActive && !input.isActive;
    if (deactivating) {
      if (id === actorId) throw new HttpError(403, "You can't deactivate your own account");
      await assertNotLastAdmin(tx, id);
    }
    await tx
      .update(users)
      .set({
        username: input.username,
        email: input.email,
        forename: input.forename,
        surname: input.surname,
        displayName: input.displayName,
        isActive: input.isActive,
        ...(passwordHash ? { passwordHash } : {}),
      })
      .where(eq(users.id, id));
    const changed: string[] = (['username', 'email', 'forename', 'surname', 'displayName', 'isActive'] as const).filter((k) => current[k] !== input[k]);
    if (passwordHash) changed.push('password');
    if (changed.length) {
      await auditIn(tx, actor.origin, {
        kind: 'user.updated',
        object: { type: 'user', id, name: userName(input) },
        detail: { changed, ...(deactivating ? { deactivated: true } : !current.isActive && input.isActive ? { reactivated: true } : {}) },
      });
    }
    return { endedSessions: deactivating || !!passwordHash };
  });
  // Old sessions must not outlive a deactivation or a password change.
  if (endedSessions) await invalidateAllSessions('staff', id);
  return { user: await getUser(id), endedSessions };
}

/**
 * Replaces a user's roles with exactly `roleIds`. Nobody changes their own roles, nor gives or
 * takes away a role holding a permission they don't hold themselves (no privilege escalation).
 */
export async function setUserRoles(id: string, roleIds: number[], actor: Actor) {
  const wanted = [...new Set(roleIds)];
  await db.transaction(async (tx) => {
    const [exists] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).limit(1);
    if (!exists) throw notFound('User not found');
    const found = wanted.length ? await tx.select({ id: roles.id, name: roles.name, isProtected: roles.isProtected }).from(roles).where(inArray(roles.id, wanted)) : [];
    const missing = wanted.filter((r) => !found.some((f) => f.id === r));
    if (missing.length) throw new HttpError(400, `roleIds: no role with id ${missing.join(', ')}`);
    // The protected role (Client) belongs to portal accounts (issue 19 #17); a staff user who
    // already holds it from before may keep it until it is taken away.
    const held = await tx.select({ roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, id));
    const given = found.find((r) => r.isProtected && !held.some((h) => h.roleId === r.id));
    if (given) throw new HttpError(403, `The ${given.name} role is for client portal accounts and cannot be given to staff users`);
    const current = held.map((r) => r.roleId);
    const changed = [...wanted.filter((r) => !current.includes(r)), ...current.filter((r) => !wanted.includes(r))];
    if (!changed.length) return;
    if (id === actor.id) throw new HttpError(403, "You can't change your own roles. Ask another administrator.");
    await assertWithinActor(tx, actor, id);
    for (const [, role] of await permissionsOfRoles(tx, changed)) {
      const beyond = beyondActor(actor, role.permissions);
      if (beyond.length) {
        throw new HttpError(403, `You can't give or take away the role "${role.name}": it holds permissions you don't have (${beyond.join(', ')}).`);
      }
    }
    if (!found.some((r) => r.name === ADMIN_ROLE)) await assertNotLastAdmin(tx, id);
    await tx.delete(userRoles).where(eq(userRoles.userId, id));
    if (wanted.length) await tx.insert(userRoles).values(wanted.map((roleId) => ({ userId: id, roleId })));
    const names = await permissionsOfRoles(tx, changed);
    const roleName = (r: number) => names.get(r)?.name ?? String(r);
    const [who] = await tx.select({ username: users.username, displayName: users.displayName }).from(users).where(eq(users.id, id));
    await auditIn(tx, actor.origin, {
      kind: 'user.roles_changed',
      object: { type: 'user', id, name: userName(who!) },
      detail: { added: wanted.filter((r) => !current.includes(r)).map(roleName), removed: current.filter((r) => !wanted.includes(r)).map(roleName) },
    });
  });
  return getUser(id);
}

/** Deletes a staff user; their sessions and role links go with them (FK cascades). */
export async function deleteUser(id: string, actor: Actor) {
  if (id === actor.id) throw new HttpError(403, "You can't delete your own account");
  await db.transaction(async (tx) => {
    const [exists] = await tx.select({ id: users.id, username: users.username, displayName: users.displayName, email: users.email }).from(users).where(eq(users.id, id)).limit(1);
    if (!exists) throw notFound('User not found');
    await assertWithinActor(tx, actor, id);
    await assertNotLastAdmin(tx, id);
    await tx.delete(users).where(eq(users.id, id));
    await auditIn(tx, actor.origin, { kind: 'user.deleted', object: { type: 'user', id, name: userName(exists) }, detail: { email: exists.email } });
  });
}

/**
 * An administrator's reset of another user's second factors (issue 56): the app and the
 * recovery codes go, and the user is signed out everywhere. Never one's own here: that takes
 * a code on one's own Security page, so a stolen session alone cannot drop the factor.
 */
export async function resetUserSecondFactors(id: string, actor: Actor): Promise<void> {
  if (id === actor.id) {
    throw new HttpError(403, "You can't reset your own second factor here. Remove it on your Security page with a code from your app or a recovery code.");
  }
  const [exists] = await db.select({ id: users.id, displayName: users.displayName, username: users.username }).from(users).where(eq(users.id, id)).limit(1);
  if (!exists) throw notFound('User not found');
  await assertWithinActor(db, actor, id);
  if (!(await resetSecondFactors({ kind: 'staff', id }))) throw new HttpError(409, 'This user has no second factor to reset.');
  await audit(db, actor.origin, { kind: 'user.second_factor_reset', object: { type: 'user', id, name: userName(exists) } });
}
