import { endpoint, json, readJson } from '../../../server/http.ts';
import { anonymousOrigin } from '../../../server/audit/origin.ts';
import { clientLoginSchema } from '../../../shared/schemas/auth.ts';
import { authenticateClient } from '../../../server/auth/accounts.ts';
import { trustedDeviceId } from '../../../server/auth/devices.ts';
import { afterPassword, secondStepAnswer } from '../../../server/auth/factors/sign-in.ts';

// 200 when signed in; 202 when the login has an authenticator app and its code is awaited
// (POST /api/client/login/verify).
export const POST = endpoint(async (ctx) => {
  const { username, password } = await readJson(ctx.request, clientLoginSchema);
  const clientUser = await authenticateClient(username, password, anonymousOrigin(ctx), (id) => trustedDeviceId(ctx.cookies, 'client', id));
  const factors = await afterPassword(ctx, { kind: 'client', id: clientUser.id });
  if (factors) return json(secondStepAnswer(factors), 202);
  return json({ clientUser });
});
