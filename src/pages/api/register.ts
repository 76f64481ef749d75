import { endpoint, json, readJson } from '../../server/http.ts';
import { isHttps } from '../../server/proxy.ts';
import { registerSchema } from '../../shared/schemas/auth.ts';
import { registerStaff } from '../../server/auth/accounts.ts';
import { createSession, setSessionCookie } from '../../server/auth/sessions.ts';
import { config } from '../../server/config.ts';
import { anonymousOrigin } from '../../server/audit/origin.ts';

export const POST = endpoint(async (ctx) => {
  const input = await readJson(ctx.request, registerSchema);
  const user = await registerStaff(input, config.ALLOW_REGISTRATION, anonymousOrigin(ctx));
  const { token, expiresAt } = await createSession('staff', user.id);
  setSessionCookie(ctx.cookies, 'staff', token, expiresAt, isHttps(ctx));
  return json(user, 201);
});
