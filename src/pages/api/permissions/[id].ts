import { endpoint, json, parseId } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { deletePermission } from '../../../server/accounts/roles.ts';

export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:roles');
  await deletePermission(parseId(ctx.params.id, 'Permission'));
  return json({ message: 'Permission deleted' });
});
