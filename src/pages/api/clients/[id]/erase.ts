// Erases the client (issue 56): the body repeats the client's name, so a slip cannot do it.
// edit:clients.
import { badRequest, endpoint, json, parseId, readJson } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { staffOrigin } from '../../../../server/audit/origin.ts';
import { getClient } from '../../../../server/accounts/clients.ts';
import { eraseClient } from '../../../../server/privacy/erase.ts';
import { eraseClientSchema, ERASE_NAME_MISMATCH } from '../../../../shared/schemas/clients.ts';

export const POST = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:clients');
  const id = parseId(ctx.params.id, 'Client');
  const { confirmName } = await readJson(ctx.request, eraseClientSchema);
  const client = await getClient(id);
  if (confirmName.trim() !== client.name.trim()) throw badRequest(ERASE_NAME_MISMATCH);
  return json(await eraseClient(id, staffOrigin(ctx)));
});
