import { firstAdminPage } from './admin-routes.ts';

/**
 * Where a staff user goes after signing in (000 §2: Admin and Staff → the dashboard, Client →
 * portal, else /). Anyone else who may open an admin page goes to the first one (issue 53: a
 * custom "Editor" with the media permissions lands on Media, not on the public home).
 */
export function landingFor(roles: string[], permissions: string[]): string {
  return firstAdminPage(roles, permissions) ?? (roles.includes('Client') ? '/client/dashboard' : '/');
}

/**
 * A return path from a `?next=` parameter, or null unless it is a same-site path: it must
 * start with one "/" (not "//" or "/\", which browsers read as another host) and resolve to
 * this origin; no control characters.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 2000 || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return null;
  try {
    const base = 'http://same.invalid';
    const url = new URL(raw, base);
    if (url.origin !== base) return null;
    return url.pathname + url.search + url.hash;
  } catch {
    return null;
  }
}

/** The server's 401 for a request without a session (src/server/auth/guard.ts); the browser reads it as a lost session. */
export const NOT_SIGNED_IN = 'You need to sign in to do that.';

/** The sign-in page for the screen at `path`, asking to come back to it afterwards. */
export function signInAgainHref(path: string): string | null {
  const page = path.startsWith('/admin') ? '/auth' : path.startsWith('/client/') && !path.startsWith('/client/login') ? '/client/login' : null;
  return page ? `${page}?next=${encodeURIComponent(path)}` : null;
}
