// The people the audit screen's filter offers (view:audit).
import { endpoint, json } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { auditPeople } from '../../../server/audit/query.ts';

export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:audit');
  return json(await auditPeople());
});
