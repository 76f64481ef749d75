import { endpoint, json } from '../../../server/http.ts';
import { SESSION_COOKIE, clearSessionCookie, invalidateSession } from '../../../server/auth/sessions.ts';
import { sessionIdFromToken } from '../../../server/auth/tokens.ts';

export const POST = endpoint(async (ctx) => {
  const token = ctx.cookies.get(SESSION_COOKIE.client)?.value;
  if (token) await invalidateSession('client', sessionIdFromToken(token));
  clearSessionCookie(ctx.cookies, 'client', ctx.url.protocol === 'https:');
  return json({ message: 'Logged out' });
});
