import { endpoint, json, readJson } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { createPermission, listPermissions } from '../../../server/accounts/roles.ts';
import { permissionSchema } from '../../../shared/schemas/roles.ts';
import { staffOrigin } from '../../../server/audit/origin.ts';

export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:roles');
  return json(await listPermissions());
});

export const POST = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:roles');
  const input = await readJson(ctx.request, permissionSchema);
  return json(await createPermission(input, staffOrigin(ctx)), 201);
});
