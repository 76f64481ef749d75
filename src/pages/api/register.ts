import { endpoint, json, readJson } from '../../server/http.ts';
import { registerSchema } from '../../shared/schemas/auth.ts';
import { registerStaff } from '../../server/auth/accounts.ts';
import { startSession } from '../../server/auth/factors/sign-in.ts';
import { enrolmentDue } from '../../server/auth/factors/state.ts';
import { config } from '../../server/config.ts';
import { anonymousOrigin } from '../../server/audit/origin.ts';

export const POST = endpoint(async (ctx) => {
  const input = await readJson(ctx.request, registerSchema);
  const user = await registerStaff(input, config.ALLOW_REGISTRATION, anonymousOrigin(ctx));
  // A new account has no second factor; when its role requires one, the session may only enrol.
  await startSession(ctx, { kind: 'staff', id: user.id }, null);
  return json({ ...user, mustEnrol: await enrolmentDue(user.id) }, 201);
});
