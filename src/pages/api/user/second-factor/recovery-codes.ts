import { endpoint, json, readJson } from '../../../../server/http.ts';
import { proveAnyFactorSchema } from '../../../../shared/schemas/second-factor.ts';
import { ownAccount } from '../../../../server/auth/factors/own.ts';
import { renewRecoveryCodes } from '../../../../server/auth/factors/manage.ts';

/** Ten new recovery codes (the old ones stop working), with a code from the app or an old recovery code. */
export const POST = endpoint(async (ctx) => {
  const proof = await readJson(ctx.request, proveAnyFactorSchema);
  return json({ recoveryCodes: await renewRecoveryCodes(ctx, ownAccount(ctx, 'staff'), proof) });
});
