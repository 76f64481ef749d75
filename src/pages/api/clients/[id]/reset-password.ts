import { endpoint, json, parseId, readJson } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { resetClientPassword } from '../../../../server/accounts/clients.ts';
import { resetClientPasswordSchema } from '../../../../shared/schemas/clients.ts';
import { staffOrigin } from '../../../../server/audit/origin.ts';

export const PUT = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:clients');
  const id = parseId(ctx.params.id, 'Client');
  const { password } = await readJson(ctx.request, resetClientPasswordSchema);
  await resetClientPassword(id, password, staffOrigin(ctx));
  return json({ message: 'Password reset' });
});
