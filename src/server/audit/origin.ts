// Who acted and from where, taken from the request (issue 56): the signed-in staff user or client
// login, or a share link's guest by the name they typed and the link's name; the address (the
// proxy-aware one every endpoint uses) and a short summary of the user agent.
import type { APIContext } from 'astro';
import { clientIp } from '../http.ts';
import type { AuditOrigin } from './record.ts';

type Ctx = Pick<APIContext, 'locals' | 'request'> & Partial<Pick<APIContext, 'clientAddress'>>;

/** Browsers in the order their tokens must be tried (Edge and Opera also say Chrome, Chrome says Safari). */
const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/(?:Chrome|CriOS|Chromium)\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[\d.]* .*Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/** "Firefox 141 on Linux", "Safari 18 on iOS", "curl 8": enough to tell devices apart, no more. */
export function agentSummary(ua: string | null): string {
  if (!ua) return '';
  let browser: string | null = null;
  for (const [re, name] of BROWSERS) {
    const m = re.exec(ua);
    if (m) {
      browser = `${name} ${m[1]}`;
      break;
    }
  }
  // Tools name themselves first: "curl/8.5.0", "Prometheus/3.1".
  browser ??= /^([A-Za-z][\w.-]*)\/(\d+)/.exec(ua)?.slice(1, 3).join(' ') ?? 'Unknown';
  const os = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  return (os ? `${browser} on ${os}` : browser).slice(0, 100);
}

function where(ctx: Ctx): Pick<AuditOrigin, 'ip' | 'agent'> {
  return { ip: clientIp(ctx as APIContext), agent: agentSummary(ctx.request.headers.get('user-agent')) };
}

const staffName = (u: NonNullable<App.Locals['user']>) => u.displayName || [u.forename, u.surname].filter(Boolean).join(' ') || u.username;

/** The signed-in staff user (endpoints that required one), or `user` signing in now. */
export function staffOrigin(ctx: Ctx, user = ctx.locals.user): AuditOrigin {
  if (!user) return anonymousOrigin(ctx);
  return { actor: { type: 'staff', key: `staff:${user.id}`, name: `${staffName(user)} (${user.username})` }, ...where(ctx) };
}

/** The signed-in client login (or `c` signing in now), counted as its client (all of a client's logins are one person). */
export function clientOrigin(ctx: Ctx, c = ctx.locals.clientUser): AuditOrigin {
  if (!c) return anonymousOrigin(ctx);
  return { actor: { type: 'client', key: `client:${c.clientId}`, name: `${c.name} (${c.username})` }, ...where(ctx) };
}

/** A share link's visitor, by the name they typed and the link's name. */
export function guestOrigin(ctx: Ctx, link: { id: number; name: string }, guestName: string): AuditOrigin {
  return { actor: { type: 'guest', key: `link:${link.id}`, name: `${guestName || 'Guest'} via link “${link.name}”` }, ...where(ctx) };
}

/** Nobody signed in (a failed sign-in names the login typed). */
export function anonymousOrigin(ctx: Ctx, name = ''): AuditOrigin {
  return { actor: { type: 'anonymous', key: 'anonymous', name }, ...where(ctx) };
}

/** The account a sign-in attempt was for, when the login named one. */
export function accountOrigin(ctx: Ctx, account: { type: 'staff' | 'client'; key: string; name: string }): AuditOrigin {
  return { actor: account, ...where(ctx) };
}
