import { endpoint, json, readJson } from '../../server/http.ts';
import { anonymousOrigin } from '../../server/audit/origin.ts';
import { isHttps } from '../../server/proxy.ts';
import { staffLoginSchema } from '../../shared/schemas/auth.ts';
import { authenticateStaff } from '../../server/auth/accounts.ts';
import { createSession, setSessionCookie } from '../../server/auth/sessions.ts';
import { rememberDevice, trustedDeviceId } from '../../server/auth/devices.ts';

export const POST = endpoint(async (ctx) => {
  const { username, password } = await readJson(ctx.request, staffLoginSchema);
  const user = await authenticateStaff(username, password, anonymousOrigin(ctx), (id) => trustedDeviceId(ctx.cookies, 'staff', id));
  const { token, expiresAt } = await createSession('staff', user.id);
  setSessionCookie(ctx.cookies, 'staff', token, expiresAt, isHttps(ctx));
  await rememberDevice(ctx.cookies, 'staff', user.id, isHttps(ctx));
  return json(user);
});
