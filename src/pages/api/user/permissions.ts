import { endpoint, json } from '../../../server/http.ts';
import { requireStaff } from '../../../server/auth/guard.ts';
import { loadRolesAndPermissions } from '../../../server/auth/principals.ts';

export const GET = endpoint(async (ctx) => {
  const user = requireStaff(ctx);
  return json((await loadRolesAndPermissions(user.id)).permissions);
});
