import { endpoint, json } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { waitingLists } from '../../../server/rounds/mine.ts';

/** The items whose open review stage waits on this staff user, and those overdue (issue 57). */
export const GET = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'view:media');
  return json(await waitingLists({ kind: 'staff', userId: user.id }));
});
