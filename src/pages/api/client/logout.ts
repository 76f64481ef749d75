import { endpoint, json } from '../../../server/http.ts';
import { isHttps } from '../../../server/proxy.ts';
import { SESSION_COOKIE, clearSessionCookie, invalidateSession } from '../../../server/auth/sessions.ts';
import { sessionIdFromToken } from '../../../server/auth/tokens.ts';

export const POST = endpoint(async (ctx) => {
  const token = ctx.cookies.get(SESSION_COOKIE.client)?.value;
  if (token) await invalidateSession('client', sessionIdFromToken(token));
  clearSessionCookie(ctx.cookies, 'client', isHttps(ctx));
  return json({ message: 'Logged out' });
});
