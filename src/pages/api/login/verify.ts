import { endpoint, json, readJson } from '../../../server/http.ts';
import { verifySecondFactorSchema } from '../../../shared/schemas/second-factor.ts';
import { finishSignIn } from '../../../server/auth/factors/sign-in.ts';
import { loadStaffUser } from '../../../server/auth/principals.ts';

/** Sign-in's second step (issue 56): `{ factor, code, trustBrowser }` for the pending sign-in of this browser. */
export const POST = endpoint(async (ctx) => {
  const input = await readJson(ctx.request, verifySecondFactorSchema);
  const account = await finishSignIn(ctx, 'staff', input);
  const user = (await loadStaffUser(String(account.id)))!;
  return json({ ...user, mustEnrol: false });
});
