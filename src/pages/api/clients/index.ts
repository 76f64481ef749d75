import { endpoint, json, readJson } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { createClient, listClients } from '../../../server/accounts/clients.ts';
import { createClientSchema } from '../../../shared/schemas/clients.ts';
import { staffOrigin } from '../../../server/audit/origin.ts';

export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:clients');
  return json(await listClients());
});

export const POST = endpoint(async (ctx) => {
  const actor = requirePermission(ctx, 'edit:clients');
  const input = await readJson(ctx.request, createClientSchema);
  return json(await createClient(input, actor.id, staffOrigin(ctx)), 201);
});
