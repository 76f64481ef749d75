// The audit log (issue 56): one page of rows, newest first, filtered (view:audit).
import { endpoint, json } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { listAudit } from '../../../server/audit/query.ts';
import { auditQueryFrom } from '../../../shared/schemas/audit.ts';

export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:audit');
  return json(await listAudit(auditQueryFrom(ctx.url.searchParams)));
});
