// Who holds a stream or acts in a live session: a member of staff, a client login or a share
// link's visitor, taken from the request by the same guards every endpoint uses. What each may
// receive is decided per event (audience.ts), with what is true when it is sent.
import type { APIContext } from 'astro';
import { SESSION_COOKIE } from '../auth/sessions.ts';
import { sessionIdFromToken } from '../auth/tokens.ts';
import { NOT_SIGNED_IN, requireClient, requireStaff } from '../auth/guard.ts';
import { badRequest, clientIp, HttpError } from '../http.ts';
import { requireVisit } from '../sharing/access.ts';

export type LivePrincipal =
  | { kind: 'staff'; userId: string; sessionId: string; name: string; permissions: Set<string> }
  | { kind: 'client'; clientUserId: number; clientId: number; sessionId: string; name: string }
  | { kind: 'link'; linkId: number; visitId: string; name: string; allowComment: boolean };

type Ctx = Pick<APIContext, 'locals' | 'cookies' | 'request' | 'url'> & Partial<Pick<APIContext, 'clientAddress'>>;

export const LIVE_AS = ['staff', 'client'] as const;
export type LiveAs = (typeof LIVE_AS)[number];

/** `?as=staff|client`: a browser may hold both cookies, so the page says which side it is. */
export function liveAs(url: URL): LiveAs {
  const as = url.searchParams.get('as');
  if (as !== 'staff' && as !== 'client') throw badRequest('as: must be staff or client');
  return as;
}

function sessionIdOf(ctx: Ctx, kind: LiveAs): string {
  const token = ctx.cookies.get(SESSION_COOKIE[kind])?.value;
  // The middleware validated this very cookie a moment ago.
  if (!token) throw new HttpError(401, NOT_SIGNED_IN);
  return sessionIdFromToken(token);
}

export function staffPrincipal(ctx: Ctx): LivePrincipal {
  const user = requireStaff(ctx);
  const name = user.displayName || [user.forename, user.surname].filter(Boolean).join(' ') || user.username;
  return { kind: 'staff', userId: user.id, sessionId: sessionIdOf(ctx, 'staff'), name, permissions: new Set(ctx.locals.permissions) };
}

export function clientPrincipal(ctx: Ctx): LivePrincipal {
  const user = requireClient(ctx);
  // The client's name, which staff and the client's guests may see; a login is never shown
  // to others (it is half of what signs in).
  return { kind: 'client', clientUserId: user.id, clientId: user.clientId, sessionId: sessionIdOf(ctx, 'client'), name: user.name || 'Client' };
}

export function principalAs(ctx: Ctx, as: LiveAs): LivePrincipal {
  return as === 'staff' ? staffPrincipal(ctx) : clientPrincipal(ctx);
}

export async function linkPrincipal(ctx: Ctx, token: string | undefined): Promise<LivePrincipal> {
  const { link, visit } = await requireVisit(ctx, token);
  return { kind: 'link', linkId: link.id, visitId: visit.id, name: visit.guestName || 'Guest', allowComment: link.allowComment };
}

/**
 * One key per person (not per tab): the stream limit counts it, and a live session knows a
 * participant by it. Never sent to a browser (participants are known there by a row id). A
 * guest's names their link too, so a session counts a link's guests together.
 */
export function principalKey(p: LivePrincipal): string {
  switch (p.kind) {
    case 'staff':
      return `staff:${p.userId}`;
    case 'client':
      return `client:${p.clientUserId}`;
    case 'link':
      return `${guestKeyPrefix(p.linkId)}${p.visitId}`;
  }
}

/** How every key of a link's guests begins. */
export const guestKeyPrefix = (linkId: number) => `guest:${linkId}:`;

export function participantKind(p: LivePrincipal): 'staff' | 'client' | 'guest' {
  return p.kind === 'link' ? 'guest' : p.kind;
}

export function addressOf(ctx: Ctx): string {
  if (ctx.clientAddress === undefined) return 'unknown';
  return clientIp(ctx as APIContext) ?? 'unknown';
}
