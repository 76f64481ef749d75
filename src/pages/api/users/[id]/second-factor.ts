import { endpoint, json } from '../../../../server/http.ts';
import { actorOf, requirePermission } from '../../../../server/auth/guard.ts';
import { parseUserId, resetUserSecondFactors } from '../../../../server/accounts/users.ts';

/** An administrator resets another user's second factor (issue 56); the user is signed out everywhere. */
export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:users');
  await resetUserSecondFactors(parseUserId(ctx.params.id), actorOf(ctx));
  return json({ message: 'Second factor reset' });
});
