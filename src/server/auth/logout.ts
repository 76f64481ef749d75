// Logout for both session kinds (000 §4, 001 §4). The answer always clears the cookie, errors
// included, and a session whose delete failed (database busy) is retried in the background, so
// once the request reached the server the session does not outlive the click.
import type { APIContext, MiddlewareNext } from 'astro';
import { SESSION_COOKIE, clearSessionCookie, invalidateSession, type SessionKind } from './sessions.ts';
import { sessionIdFromToken } from './tokens.ts';
import { errorResponse, json } from '../http.ts';
import { isHttps } from '../proxy.ts';

export const LOGOUT_PATHS: Record<string, SessionKind> = {
  '/api/logout': 'staff',
  '/api/client/logout': 'client',
};

const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000, 16000];

function retryInBackground(kind: SessionKind, sessionId: string, attempt = 0): void {
  const delay = RETRY_DELAYS_MS[attempt];
  if (delay === undefined) {
    console.error(`logout: could not delete a ${kind} session after ${attempt} retries`);
    return;
  }
  setTimeout(() => {
    invalidateSession(kind, sessionId).catch(() => retryInBackground(kind, sessionId, attempt + 1));
  }, delay).unref();
}

/** The endpoint body: deletes the session named by the cookie and clears the cookie. */
export async function logout(ctx: APIContext, kind: SessionKind): Promise<Response> {
  // Read before clearing: AstroCookies.get answers the value set during this request.
  const token = ctx.cookies.get(SESSION_COOKIE[kind])?.value;
  clearSessionCookie(ctx.cookies, kind, isHttps(ctx));
  if (token) {
    const id = sessionIdFromToken(token);
    try {
      await invalidateSession(kind, id);
    } catch (error) {
      retryInBackground(kind, id);
      throw error;
    }
  }
  return json({ message: 'Logged out' });
}

function clearingCookie(kind: SessionKind, secure: boolean): string {
  return `${SESSION_COOKIE[kind]}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}

/**
 * Middleware for the logout routes: whatever answers (the endpoint, the cross-site check, an
 * error anywhere before the endpoint), the response carries the cookie-clearing header.
 */
export async function clearCookieOnEveryLogoutAnswer(ctx: APIContext, next: MiddlewareNext): Promise<Response> {
  const kind = LOGOUT_PATHS[ctx.url.pathname.replace(/\/$/, '')];
  if (!kind || ctx.request.method !== 'POST') return next();
  let response: Response;
  try {
    response = await next();
  } catch (error) {
    console.error(error);
    response = errorResponse(500, 'Something went wrong on our side. Please try again.');
  }
  const header = clearingCookie(kind, isHttps(ctx));
  try {
    response.headers.append('Set-Cookie', header);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.append('Set-Cookie', header);
    return copy;
  }
}
