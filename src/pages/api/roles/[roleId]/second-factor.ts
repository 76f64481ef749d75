import { endpoint, json, parseId, readJson } from '../../../../server/http.ts';
import { actorOf, requirePermission } from '../../../../server/auth/guard.ts';
import { setRoleSecondFactorPolicy } from '../../../../server/accounts/roles.ts';
import { rolePolicySchema } from '../../../../shared/schemas/second-factor.ts';

/** `{ required }`: whether users holding the role must sign in with a second factor (issue 56). */
export const PUT = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:roles');
  const { required } = await readJson(ctx.request, rolePolicySchema);
  return json(await setRoleSecondFactorPolicy(parseId(ctx.params.roleId, 'Role'), required, actorOf(ctx)));
});
