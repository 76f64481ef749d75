import { endpoint, json } from '../../server/http.ts';
import { requireStaff } from '../../server/auth/guard.ts';
import { getStats } from '../../server/stats.ts';

export const GET = endpoint(async (ctx) => {
  requireStaff(ctx);
  return json(await getStats());
});
