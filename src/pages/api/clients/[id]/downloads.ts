import { endpoint, json, parseId, readJson } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { getClientDownloads, setClientDownloads } from '../../../../server/accounts/clients.ts';
import { clientDownloadsSchema } from '../../../../shared/schemas/clients.ts';
import { staffOrigin } from '../../../../server/audit/origin.ts';

/** Whether the client's downloads wait for approval of each item's current version (issue 30). */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:clients');
  return json(await getClientDownloads(parseId(ctx.params.id, 'Client')));
});

/** Switches "downloads wait for approval" on or off; the client's next request follows it. */
export const PUT = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:clients');
  const input = await readJson(ctx.request, clientDownloadsSchema);
  return json(await setClientDownloads(parseId(ctx.params.id, 'Client'), input, user.id, staffOrigin(ctx)));
});
