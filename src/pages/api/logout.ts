import { endpoint, json } from '../../server/http.ts';
import { SESSION_COOKIE, clearSessionCookie, invalidateSession } from '../../server/auth/sessions.ts';
import { sessionIdFromToken } from '../../server/auth/tokens.ts';

export const POST = endpoint(async (ctx) => {
  const token = ctx.cookies.get(SESSION_COOKIE.staff)?.value;
  if (token) await invalidateSession('staff', sessionIdFromToken(token));
  clearSessionCookie(ctx.cookies, 'staff', ctx.url.protocol === 'https:');
  return json({ message: 'Logged out' });
});
