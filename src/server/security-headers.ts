// Response headers every answer carries (the CSP comes from astro.config.mjs). One list, used
// by the middleware and by the page cache's Node fast path, which answers without Astro.
export const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['X-Frame-Options', 'DENY'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Permissions-Policy', 'camera=(), microphone=(), geolocation=()'],
];

export const PRIVATE_NO_STORE = 'private, no-store';

/**
 * The Cache-Control an answer must carry when it may hold someone's private data, or null to
 * keep what the route chose. Anything rendered for a session, every admin and portal page and
 * every API answer not explicitly public must never be stored by a browser or a proxy
 * (shared computers, back button after sign-out, mis-configured CDNs).
 */
export function privateCacheControl(pathname: string, contentType: string | null, current: string | null, signedIn: boolean): string | null {
  const isPublic = /^\s*public\b/i.test(current ?? '');
  if (pathname === '/api' || pathname.startsWith('/api/')) return isPublic ? null : PRIVATE_NO_STORE;
  const html = /^text\/html\b/i.test(contentType ?? '');
  if (!html) return null;
  const area = /^\/(admin|client)(\/|$)/.test(pathname);
  return signedIn || area ? PRIVATE_NO_STORE : null;
}
