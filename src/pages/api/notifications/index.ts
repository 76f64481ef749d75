import { endpoint, json } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { bellFor } from '../../../server/notifications/bell.ts';

/** The staff bell: the last 50 staff events and this user's unread count. */
export const GET = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'view:media');
  return json(await bellFor(user.id));
});
