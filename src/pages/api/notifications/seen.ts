import { endpoint, json } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { bellFor, markBellSeen } from '../../../server/notifications/bell.ts';

/** Marks every staff event so far as read for this user; answers the bell as it now is. */
export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'view:media');
  await markBellSeen(user.id);
  return json(await bellFor(user.id));
});
