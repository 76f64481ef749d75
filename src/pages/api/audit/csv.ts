// Every row the filters select, as CSV (view:audit); the export is itself audited.
import { endpoint } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { auditCsvResponse } from '../../../server/audit/csv-export.ts';
import { staffOrigin } from '../../../server/audit/origin.ts';
import { auditQueryFrom } from '../../../shared/schemas/audit.ts';

export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:audit');
  return auditCsvResponse(auditQueryFrom(ctx.url.searchParams), staffOrigin(ctx));
});
