import { HttpError, endpoint, json } from '../../../../server/http.ts';
import { pendingAccount, PENDING_EXPIRED } from '../../../../server/auth/factors/pending.ts';
import { authenticationOptions } from '../../../../server/auth/factors/passkeys.ts';

/** Sign-in's second step with a passkey (issue 56): a challenge for the pending sign-in's passkeys. */
export const POST = endpoint(async (ctx) => {
  const account = await pendingAccount(ctx.cookies, 'staff');
  if (!account) throw new HttpError(401, PENDING_EXPIRED);
  return json(await authenticationOptions(ctx, String(account.id)));
});
