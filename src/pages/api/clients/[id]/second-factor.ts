import { endpoint, json, parseId } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { resetClientSecondFactors } from '../../../../server/accounts/clients.ts';
import { staffOrigin } from '../../../../server/audit/origin.ts';

/** Staff reset a client login's authenticator app (issue 56); the client is signed out everywhere. */
export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:clients');
  await resetClientSecondFactors(parseId(ctx.params.id, 'Client'), staffOrigin(ctx));
  return json({ message: 'Authenticator app reset' });
});
