import { endpoint, json, readJson } from '../../../server/http.ts';
import { passkeySignInSchema } from '../../../shared/schemas/second-factor.ts';
import { signInWithPasskey } from '../../../server/auth/factors/sign-in.ts';
import { loadStaffUser } from '../../../server/auth/principals.ts';

/** Signs in with a passkey alone (`{ response }` to /api/login/passkey/options): the user, as /api/login answers. */
export const POST = endpoint(async (ctx) => {
  const { response } = await readJson(ctx.request, passkeySignInSchema);
  const account = await signInWithPasskey(ctx, response);
  const user = (await loadStaffUser(String(account.id)))!;
  return json({ ...user, mustEnrol: false });
});
