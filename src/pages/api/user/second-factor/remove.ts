import { endpoint, json, readJson } from '../../../../server/http.ts';
import { proveAnyFactorSchema } from '../../../../shared/schemas/second-factor.ts';
import { ownAccount } from '../../../../server/auth/factors/own.ts';
import { removeOwnFactors } from '../../../../server/auth/factors/manage.ts';

/** Removes the authenticator app and the recovery codes, with a code from either. */
export const POST = endpoint(async (ctx) => {
  const proof = await readJson(ctx.request, proveAnyFactorSchema);
  await removeOwnFactors(ctx, ownAccount(ctx, 'staff'), proof);
  return json({ message: 'Authenticator app removed' });
});
