import { endpoint, json, parseId } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { deletePermission } from '../../../server/accounts/roles.ts';
import { staffOrigin } from '../../../server/audit/origin.ts';

export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:roles');
  await deletePermission(parseId(ctx.params.id, 'Permission'), staffOrigin(ctx));
  return json({ message: 'Permission deleted' });
});
