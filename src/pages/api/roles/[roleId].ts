import { endpoint, json, parseId, readJson } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { deleteRole, updateRole } from '../../../server/accounts/roles.ts';
import { roleSchema } from '../../../shared/schemas/roles.ts';
import { staffOrigin } from '../../../server/audit/origin.ts';

export const PUT = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:roles');
  const id = parseId(ctx.params.roleId, 'Role');
  const input = await readJson(ctx.request, roleSchema);
  return json(await updateRole(id, input, staffOrigin(ctx)));
});

export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:roles');
  await deleteRole(parseId(ctx.params.roleId, 'Role'), staffOrigin(ctx));
  return json({ message: 'Role deleted' });
});
