// The one server-side check every API endpoint uses.
import type { APIContext } from 'astro';
import { HttpError } from '../http.ts';
import { NOT_SIGNED_IN } from '../../shared/landing.ts';
import { staffOrigin } from '../audit/origin.ts';
import type { AuditOrigin } from '../audit/record.ts';

type Ctx = Pick<APIContext, 'locals'>;
type RequestCtx = Pick<APIContext, 'locals' | 'request'> & Partial<Pick<APIContext, 'clientAddress'>>;

export { NOT_SIGNED_IN };

/** A signed-in staff user (client sessions do not count). 401 otherwise. */
export function requireStaff(ctx: Ctx) {
  const user = ctx.locals.user;
  if (!user) throw new HttpError(401, NOT_SIGNED_IN);
  return user;
}

/** A staff user holding `permission`: 401 when signed out, 403 when it is missing. */
export function requirePermission(ctx: Ctx, permission: string) {
  const user = requireStaff(ctx);
  if (!ctx.locals.permissions.includes(permission)) {
    throw new HttpError(403, `You don't have permission to do that (needs ${permission}).`);
  }
  return user;
}

/**
 * A staff user holding at least one of `permissions`, for reads that more than one screen
 * needs (401 when signed out, 403 naming them all when none is held).
 */
export function requireAnyPermission(ctx: Ctx, permissions: readonly string[]) {
  const user = requireStaff(ctx);
  if (!permissions.some((p) => ctx.locals.permissions.includes(p))) {
    throw new HttpError(403, `You don't have permission to do that (needs ${permissions.join(' or ')}).`);
  }
  return user;
}

export function hasPermission(ctx: Ctx, permission: string): boolean {
  return !!ctx.locals.user && ctx.locals.permissions.includes(permission);
}

/** A signed-in client user (staff sessions do not count). 401 otherwise. */
export function requireClient(ctx: Ctx) {
  const clientUser = ctx.locals.clientUser;
  if (!clientUser) throw new HttpError(401, NOT_SIGNED_IN);
  return clientUser;
}

/** Who is acting, for rules that compare the actor's own rights with what they change. */
export interface Actor {
  id: string;
  roles: string[];
  permissions: string[];
  /** Who and from where, for the audit rows of what they change (issue 56). */
  origin: AuditOrigin;
}

export function actorOf(ctx: RequestCtx): Actor {
  const user = requireStaff(ctx);
  return { id: user.id, roles: ctx.locals.roles, permissions: ctx.locals.permissions, origin: staffOrigin(ctx) };
}
