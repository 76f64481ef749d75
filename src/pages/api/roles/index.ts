import { endpoint, json, readJson } from '../../../server/http.ts';
import { requireAnyPermission, requirePermission } from '../../../server/auth/guard.ts';
import { createRole, listRoles } from '../../../server/accounts/roles.ts';
import { roleSchema } from '../../../shared/schemas/roles.ts';
import { staffOrigin } from '../../../server/audit/origin.ts';

export const GET = endpoint(async (ctx) => {
  // The Edit User dialog lists roles as checkboxes, so user editors may read them too.
  requireAnyPermission(ctx, ['edit:roles', 'edit:users']);
  return json(await listRoles());
});

export const POST = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:roles');
  const input = await readJson(ctx.request, roleSchema);
  return json(await createRole(input, staffOrigin(ctx)), 201);
});
