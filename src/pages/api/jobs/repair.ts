// GET /api/jobs/repair: the library check after an upgrade (issue 39), for the dashboard's card.
import { endpoint, json } from '../../../server/http.ts';
import { requireStaff } from '../../../server/auth/guard.ts';
import { repairProgress } from '../../../server/jobs/queue.ts';

export const GET = endpoint(async (ctx) => {
  requireStaff(ctx);
  return json({ repair: await repairProgress() });
});
