import { endpoint, json, readJson } from '../../server/http.ts';
import { anonymousOrigin } from '../../server/audit/origin.ts';
import { staffLoginSchema } from '../../shared/schemas/auth.ts';
import { authenticateStaff } from '../../server/auth/accounts.ts';
import { trustedDeviceId } from '../../server/auth/devices.ts';
import { afterPassword, secondStepAnswer } from '../../server/auth/factors/sign-in.ts';
import { enrolmentDue } from '../../server/auth/factors/state.ts';

// 200 and the user when signed in (`mustEnrol`: a role requires a second factor not set up
// yet); 202 when the password was right and a second factor is awaited (POST /api/login/verify).
export const POST = endpoint(async (ctx) => {
  const { username, password } = await readJson(ctx.request, staffLoginSchema);
  const user = await authenticateStaff(username, password, anonymousOrigin(ctx), (id) => trustedDeviceId(ctx.cookies, 'staff', id));
  const factors = await afterPassword(ctx, { kind: 'staff', id: user.id });
  if (factors) return json(secondStepAnswer(factors), 202);
  return json({ ...user, mustEnrol: await enrolmentDue(user.id) });
});
