import type { APIContext } from 'astro';
import { endpoint, json, parseId } from '../../../../../server/http.ts';
import { actorOf, requirePermission } from '../../../../../server/auth/guard.ts';
import { assignPermission, removePermission } from '../../../../../server/accounts/roles.ts';
import { staffOrigin } from '../../../../../server/audit/origin.ts';

function ids(ctx: APIContext) {
  requirePermission(ctx, 'edit:roles');
  return [parseId(ctx.params.roleId, 'Role'), parseId(ctx.params.permissionId, 'Permission')] as const;
}

export const POST = endpoint(async (ctx) => json(await assignPermission(...ids(ctx), actorOf(ctx))));
export const DELETE = endpoint(async (ctx) => json(await removePermission(...ids(ctx), staffOrigin(ctx))));
