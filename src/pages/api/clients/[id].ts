import { endpoint, json, parseId, readJson } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { deleteClient, updateClient } from '../../../server/accounts/clients.ts';
import { clientDetailsSchema } from '../../../shared/schemas/clients.ts';
import { staffOrigin } from '../../../server/audit/origin.ts';

export const PUT = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:clients');
  const id = parseId(ctx.params.id, 'Client');
  const input = await readJson(ctx.request, clientDetailsSchema);
  return json(await updateClient(id, input, staffOrigin(ctx)));
});

export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:clients');
  await deleteClient(parseId(ctx.params.id, 'Client'), staffOrigin(ctx));
  return json({ message: 'Client deleted' });
});
