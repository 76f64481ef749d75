// Everything held about the client and their logins, as a ZIP of JSON and CSV (issue 56). edit:clients.
import { endpoint, parseId } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { staffOrigin } from '../../../../server/audit/origin.ts';
import { clientExportResponse } from '../../../../server/privacy/export.ts';

export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:clients');
  return clientExportResponse(parseId(ctx.params.id, 'Client'), staffOrigin(ctx));
});
