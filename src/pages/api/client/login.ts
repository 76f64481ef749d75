import { endpoint, json, readJson } from '../../../server/http.ts';
import { anonymousOrigin } from '../../../server/audit/origin.ts';
import { isHttps } from '../../../server/proxy.ts';
import { clientLoginSchema } from '../../../shared/schemas/auth.ts';
import { authenticateClient } from '../../../server/auth/accounts.ts';
import { createSession, setSessionCookie } from '../../../server/auth/sessions.ts';
import { rememberDevice, trustedDeviceId } from '../../../server/auth/devices.ts';

export const POST = endpoint(async (ctx) => {
  const { username, password } = await readJson(ctx.request, clientLoginSchema);
  const clientUser = await authenticateClient(username, password, anonymousOrigin(ctx), (id) => trustedDeviceId(ctx.cookies, 'client', id));
  const { token, expiresAt } = await createSession('client', clientUser.id);
  setSessionCookie(ctx.cookies, 'client', token, expiresAt, isHttps(ctx));
  await rememberDevice(ctx.cookies, 'client', clientUser.id, isHttps(ctx));
  return json({ clientUser });
});
