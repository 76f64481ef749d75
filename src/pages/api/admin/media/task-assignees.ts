import { endpoint, json } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { taskAssignees } from '../../../../server/rounds/tasks.ts';

/** Who a task may be given to (issue 57): active staff who see the media library, by name. */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  return json(await taskAssignees());
});
