import { endpoint, json } from '../../server/http.ts';
import { isHttps } from '../../server/proxy.ts';
import { SESSION_COOKIE, clearSessionCookie, invalidateSession } from '../../server/auth/sessions.ts';
import { sessionIdFromToken } from '../../server/auth/tokens.ts';

export const POST = endpoint(async (ctx) => {
  const token = ctx.cookies.get(SESSION_COOKIE.staff)?.value;
  if (token) await invalidateSession('staff', sessionIdFromToken(token));
  clearSessionCookie(ctx.cookies, 'staff', isHttps(ctx));
  return json({ message: 'Logged out' });
});
