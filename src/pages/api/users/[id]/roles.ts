import { endpoint, json, readJson } from '../../../../server/http.ts';
import { actorOf, requirePermission } from '../../../../server/auth/guard.ts';
import { parseUserId, setUserRoles } from '../../../../server/accounts/users.ts';
import { userRolesSchema } from '../../../../shared/schemas/users.ts';

export const PUT = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:users');
  const id = parseUserId(ctx.params.id);
  const { roleIds } = await readJson(ctx.request, userRolesSchema);
  return json(await setUserRoles(id, roleIds, actorOf(ctx)));
});
