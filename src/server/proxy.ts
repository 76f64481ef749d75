// What the client's connection really is: its scheme and address. Behind a TLS-terminating
// proxy the socket is the proxy's plain-HTTP hop, so with TRUST_PROXY on we read the headers
// the proxy adds. Only the right-most entry of each is used: that is the one our proxy wrote;
// anything to its left came from the client and can be forged.
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { config } from './config.ts';

export const HSTS = 'max-age=31536000; includeSubDomains';

function lastHop(value: string | string[] | null | undefined): string | null {
  const text = Array.isArray(value) ? value.join(',') : value;
  if (!text) return null;
  const parts = text.split(',').map((s) => s.trim()).filter(Boolean);
  return parts.at(-1) ?? null;
}

function forwardedHttps(proto: string | string[] | null | undefined): boolean | null {
  if (!config.TRUST_PROXY) return null;
  const hop = lastHop(proto);
  return hop ? hop.toLowerCase() === 'https' : null;
}

/** Whether the visitor's request arrived over https (at our proxy, when one is trusted). */
export function isHttps(ctx: { url: URL; request: Request }): boolean {
  return forwardedHttps(ctx.request.headers.get('x-forwarded-proto')) ?? ctx.url.protocol === 'https:';
}

/** The same for the Node fast path, which answers before Astro builds a Request. */
export function isHttpsNode(req: IncomingMessage): boolean {
  return forwardedHttps(req.headers['x-forwarded-proto']) ?? !!(req.socket as { encrypted?: boolean }).encrypted;
}

/** The client's address from X-Forwarded-For's last hop when the proxy is trusted, else null. */
export function forwardedAddress(request: Request): string | null {
  if (!config.TRUST_PROXY) return null;
  const hop = lastHop(request.headers.get('x-forwarded-for'));
  return hop && isIP(hop) ? hop : null;
}

/** The origin the visitor sees (https behind a trusted TLS proxy). */
export function visibleOrigin(ctx: { url: URL; request: Request }): string {
  return `${isHttps(ctx) ? 'https:' : ctx.url.protocol}//${ctx.url.host}`;
}

/**
 * The origin to put in addresses people are given (share links): SITE_URL when it is set,
 * else the one this request came in on (the default SITE_URL names the port the process was
 * told, which is wrong behind a proxy or with PORT=0).
 */
export function publicOrigin(ctx: { url: URL; request: Request }): string {
  return config.SITE_URL ? config.siteUrl : visibleOrigin(ctx);
}
