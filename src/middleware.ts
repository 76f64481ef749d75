import { defineMiddleware, sequence } from 'astro:middleware';
import { config } from './server/config.ts';
import { databaseUnavailableResponse, errorResponse, json } from './server/http.ts';
import { RETRY_AFTER_SECONDS, databaseTrouble } from './db/unavailable.ts';
import { replicaReads } from './db/read-routing.ts';
import { allowedMethods } from './server/api-methods.ts';
import { SESSION_COOKIE, setSessionCookie, clearSessionCookie, invalidateSession, validateSessionToken, type SessionKind, type SessionRow } from './server/auth/sessions.ts';
import { sessionStanding, type Standing } from './server/auth/factors/state.ts';
import { ENROL_FIRST, ENROL_PAGE } from './shared/schemas/second-factor.ts';
import { loadClientPrincipal, loadRolesAndPermissions, loadStaffUser } from './server/auth/principals.ts';
import { checkAdminRoute } from './server/auth/route-guards.ts';
import { ADMIN_DASHBOARD, firstAdminPage } from './shared/admin-routes.ts';
import { signInAgainHref } from './shared/landing.ts';
import { cacheKey, cachedPage } from './server/page-cache.ts';
import { serverThemeClass } from './server/theme.ts';
import { SECURITY_HEADERS, privateCacheControl } from './server/security-headers.ts';
import { HSTS, isHttps, visibleOrigin } from './server/proxy.ts';
import { clearCookieOnEveryLogoutAnswer } from './server/auth/logout.ts';
import { bucketOrigin } from './server/storage/s3-origin.ts';
// Loads the metrics when METRICS_TOKEN is set (issue 56).
import './server/metrics/enable.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Methods that change nothing: the only ones whose reads may come from a read replica. */
const SAFE = new Set(['GET', 'HEAD']);
const EMBED_PATH_RE = /^\/portfolio\/[a-z0-9][a-z0-9-]{0,99}\/embed$/;
// Share links carry their token in the address: it must never leave in a Referer (issue 17).
const SHARE_PATH_RE = /^\/(s|api\/share)\//;

/** Always sets every local, so pages and endpoints can rely on them. */
const initLocals = defineMiddleware((ctx, next) => {
  ctx.locals.user = null;
  ctx.locals.roles = [];
  ctx.locals.permissions = [];
  ctx.locals.clientUser = null;
  ctx.locals.staffSession = null;
  ctx.locals.clientSession = null;
  ctx.locals.mustEnrol = false;
  return next();
});

/**
 * A read-only request with no cookie at all (an anonymous visitor: no session, no share-link
 * pass) may read from the read replica when there is one (DATABASE_REPLICA_URL,
 * src/db/read-routing.ts). A cookieless POST is a sign-in, a link's password or an enquiry:
 * it writes, and what it reads first (an account staff made a moment ago) must not lag.
 */
const replicaForCookieless = defineMiddleware((ctx, next) =>
  ctx.request.headers.has('cookie') || !SAFE.has(ctx.request.method) ? next() : replicaReads(() => next()),
);

/**
 * Astro's checkOrigin only looks at form posts; this rejects any state-changing request
 * (JSON included) whose Origin names another site, or, when a client sends no Origin, whose
 * Referer does (older browsers and some privacy settings drop Origin but keep Referer).
 */
const rejectCrossSite = defineMiddleware((ctx, next) => {
  if (!UNSAFE.has(ctx.request.method)) return next();
  const origin = ctx.request.headers.get('origin');
  const fetchSite = ctx.request.headers.get('sec-fetch-site');
  if (fetchSite === 'cross-site') return errorResponse(403, 'Cross-site requests are not allowed');
  const allowed = new Set([ctx.url.origin, visibleOrigin(ctx), config.siteUrl]);
  if (origin) {
    if (origin === 'null' || !allowed.has(origin)) return errorResponse(403, 'Cross-site requests are not allowed');
    return next();
  }
  const referer = ctx.request.headers.get('referer');
  if (referer) {
    let from: string | null = null;
    try {
      from = new URL(referer).origin;
    } catch {
      /* unreadable: treated as foreign */
    }
    if (!from || !allowed.has(from)) return errorResponse(403, 'Cross-site requests are not allowed');
  }
  return next();
});

/**
 * A method an API route does not answer: Astro gives an empty 404 (then the HTML 404 page);
 * answer 405 in the JSON error shape, with the Allow header, instead.
 */
const apiMethodNotAllowed = defineMiddleware(async (ctx, next) => {
  const response = await next();
  if (response.status !== 404 || response.body !== null || !ctx.url.pathname.startsWith('/api/')) return response;
  const allow = await allowedMethods(ctx.routePattern);
  if (!allow) return response;
  return json({ message: `${ctx.request.method} is not allowed here. Allowed: ${allow.join(', ')}.` }, 405, { Allow: allow.join(', ') });
});

/**
 * What a valid session of an active account may do (issue 56): 'void' when the account has a
 * second factor and the session was made without one (it is deleted: it counts for nothing).
 */
async function standing(kind: SessionKind, session: SessionRow, required: boolean): Promise<Standing> {
  const result = await sessionStanding({ kind, id: session.ownerId }, session.secondFactor, required);
  if (result === 'void') await invalidateSession(kind, session.id);
  return result;
}

const loadSessions = defineMiddleware(async (ctx, next) => {
  const secure = isHttps(ctx);
  const staffToken = ctx.cookies.get(SESSION_COOKIE.staff)?.value;
  if (staffToken) {
    const session = await validateSessionToken('staff', staffToken);
    const user = session ? await loadStaffUser(String(session.ownerId)) : null;
    const { roles, permissions } = user?.isActive ? await loadRolesAndPermissions(user.id) : { roles: [], permissions: [] };
    const state = session && user?.isActive ? await standing('staff', session, roles.some((r) => r.requiresSecondFactor)) : 'void';
    if (session && user && state !== 'void') {
      ctx.locals.user = user;
      ctx.locals.roles = roles.map((r) => r.name);
      ctx.locals.permissions = permissions.map((p) => p.name);
      ctx.locals.staffSession = { id: session.id, secondFactor: session.secondFactor };
      ctx.locals.mustEnrol = state === 'enrol';
      if (session.renewed) setSessionCookie(ctx.cookies, 'staff', staffToken, session.expiresAt, secure);
    } else {
      clearSessionCookie(ctx.cookies, 'staff', secure);
    }
  }
  const clientToken = ctx.cookies.get(SESSION_COOKIE.client)?.value;
  if (clientToken) {
    const session = await validateSessionToken('client', clientToken);
    const principal = session ? await loadClientPrincipal(Number(session.ownerId)) : null;
    const state = session && principal?.isActive ? await standing('client', session, false) : 'void';
    if (session && principal && state !== 'void') {
      const { isActive: _active, ...clientUser } = principal;
      ctx.locals.clientUser = clientUser;
      ctx.locals.clientSession = { id: session.id, secondFactor: session.secondFactor };
      if (session.renewed) setSessionCookie(ctx.cookies, 'client', clientToken, session.expiresAt, secure);
    } else {
      clearSessionCookie(ctx.cookies, 'client', secure);
    }
  }
  return next();
});

/** What a staff user who must set up a second factor may still reach (issue 56): enrolment and sign-out. */
const OPEN_WHILE_ENROLLING = new Set([ENROL_PAGE, '/api/user/second-factor', '/api/user/second-factor/totp', '/api/user/second-factor/totp/confirm', '/api/user/second-factor/passkeys/options', '/api/user/second-factor/passkeys', '/api/logout']);

/**
 * A staff user whose role requires a second factor and who has none reaches nothing else:
 * pages send them to the enrolment page, the API answers 403 saying so.
 */
const enrolFirst = defineMiddleware((ctx, next) => {
  if (!ctx.locals.mustEnrol) return next();
  const path = ctx.url.pathname.replace(/(.)\/$/, '$1');
  if (OPEN_WHILE_ENROLLING.has(path)) return next();
  if (path.startsWith('/api/')) return errorResponse(403, ENROL_FIRST);
  return ctx.redirect(ENROL_PAGE);
});

/**
 * One address per page (issue 21): `/about/` answers 301 to `/about`, so search engines
 * and the sitemap see only the canonical form. API routes keep answering both.
 */
const canonicalTrailingSlash = defineMiddleware((ctx, next) => {
  const { pathname, search } = ctx.url;
  const { method } = ctx.request;
  if ((method !== 'GET' && method !== 'HEAD') || pathname.length < 2 || !pathname.endsWith('/') || pathname.startsWith('/api/')) return next();
  // Leading slashes collapsed too: "//host/" must not become a protocol-relative redirect.
  const target = `/${pathname.replace(/^\/+|\/+$/g, '')}${search}`;
  return new Response(null, { status: 301, headers: { Location: target, 'Cache-Control': 'public, max-age=3600' } });
});

/** Server-side guards for /admin pages: no flash of protected content. */
const guardAdminPages = defineMiddleware((ctx, next) => {
  const { pathname } = ctx.url;
  if (!pathname.startsWith('/admin')) return next();
  const { user, roles, permissions } = ctx.locals;
  // The admin area's home is the first page the user may open (the dashboard for Admin and
  // Staff; issue 53): /admin, and the dashboard's address for a role without it, lead there.
  const home = user ? firstAdminPage(roles, permissions) : null;
  if (pathname === '/admin' || pathname === '/admin/') return ctx.redirect(home ?? ADMIN_DASHBOARD);
  if (pathname === ADMIN_DASHBOARD && home && home !== ADMIN_DASHBOARD) return ctx.redirect(home);
  const outcome = checkAdminRoute(pathname, user, roles, permissions);
  // Back to the same screen after signing in (an email's link to `/admin/media?item=…`).
  if (outcome === 'signin') return ctx.redirect(signInAgainHref(pathname + ctx.url.search) ?? '/auth');
  if (outcome === 'role' || outcome === 'permission') return ctx.rewrite(`/access-denied/${outcome}`);
  return next();
});

/**
 * Anonymous GETs of public pages are served from the page cache; signed-in visitors
 * (whose navigation differs) always get a fresh render.
 */
const publicPageCache = defineMiddleware((ctx, next) => {
  const { method } = ctx.request;
  if (method !== 'GET' && method !== 'HEAD') return next();
  if (ctx.locals.user || ctx.locals.clientUser) return next();
  const key = cacheKey(ctx.url.pathname, serverThemeClass(ctx.cookies, ctx.url.pathname), new Date(), ctx.url.search);
  if (!key) return next();
  return cachedPage(key, ctx.request, () => next());
});

const MEDIA_ORIGIN = config.MEDIA_STORAGE === 's3' && config.S3_DELIVERY === 'redirect' ? bucketOrigin() : null;

const securityHeaders = defineMiddleware(async (ctx, next) => {
  const response = await next();
  let h: Headers;
  try {
    h = response.headers;
    h.set('X-Content-Type-Options', 'nosniff');
  } catch {
    return response; // immutable headers (e.g. a proxied fetch response)
  }
  for (const [name, value] of SECURITY_HEADERS) h.set(name, value);
  if (SHARE_PATH_RE.test(ctx.url.pathname)) h.set('Referrer-Policy', 'no-referrer');
  // A watch page's bare player is meant to be framed by other sites (twitter:player, embedUrl).
  if (EMBED_PATH_RE.test(ctx.url.pathname)) {
    h.delete('X-Frame-Options');
    const csp = h.get('Content-Security-Policy');
    if (csp) h.set('Content-Security-Policy', csp.replace(/frame-ancestors [^;]*/, "frame-ancestors 'self' https:"));
  }
  // Media answered with a redirect to the bucket load from its origin (MEDIA_STORAGE=s3).
  if (MEDIA_ORIGIN) {
    const csp = h.get('Content-Security-Policy');
    if (csp) h.set('Content-Security-Policy', csp.replace(/(img-src|media-src) ([^;]*)/g, `$1 $2 ${MEDIA_ORIGIN}`));
  }
  if (isHttps(ctx)) h.set('Strict-Transport-Security', HSTS);
  const signedIn = !!(ctx.locals.user || ctx.locals.clientUser);
  const cache = privateCacheControl(ctx.url.pathname, h.get('content-type'), h.get('cache-control'), signedIn);
  if (cache) h.set('Cache-Control', cache);
  return response;
});

// Reloads itself after the wait a 503 asks for (no script: the page must work under any CSP).
const unavailablePage = (message: string) =>
  `<!doctype html><html lang="en"><meta charset="utf-8"><meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS * 2}"><title>Back in a moment</title><h1>Back in a moment</h1><p>${message} This page reloads by itself.</p></html>`;

/**
 * The database cannot answer (a server restarting or cut off, or locked past every wait;
 * issue 44): a 503 with Retry-After, JSON for the API and a self-reloading page otherwise,
 * instead of a 500.
 */
const databaseUnavailable = defineMiddleware(async (ctx, next) => {
  try {
    return await next();
  } catch (e) {
    const trouble = databaseTrouble(e);
    if (!trouble) throw e;
    console.error(`${trouble} (${String((e as Error).message ?? e).split('\n')[0]})`);
    if (ctx.url.pathname.startsWith('/api/')) return databaseUnavailableResponse(trouble);
    return new Response(unavailablePage(trouble), {
      status: 503,
      headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': String(RETRY_AFTER_SECONDS) },
    });
  }
});

/** Logout answers clear the session cookie whatever else happens (issue 19 #10). */
const logoutClearsCookie = defineMiddleware(clearCookieOnEveryLogoutAnswer);

export const onRequest = sequence(initLocals, replicaForCookieless, securityHeaders, databaseUnavailable, canonicalTrailingSlash, apiMethodNotAllowed, logoutClearsCookie, rejectCrossSite, loadSessions, enrolFirst, publicPageCache, guardAdminPages);
