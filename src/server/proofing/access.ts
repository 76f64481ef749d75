// Who is looking at a gallery and how they got in (issue 42): a client login (the gallery is
// shared with their client) or a share link's visitor (a pass for a link to the gallery). Every
// viewer request goes through one of the two; an expired gallery answers 410 saying so.
import { and, eq } from 'drizzle-orm';
import type { APIContext } from 'astro';
import { db } from '../../db/index.ts';
import { galleries, galleryClients, proofViewers } from '../../db/schema.ts';
import { badRequest, clientIp, HttpError, notFound, parseId } from '../http.ts';
import { requireClient } from '../auth/guard.ts';
import { generateSessionToken, sessionIdFromToken } from '../auth/tokens.ts';
import { isHttps } from '../proxy.ts';
import { logAccess, requireVisit, setGuestName, type VisitRow } from '../sharing/access.ts';
import type { LinkRow } from '../sharing/links.ts';
import type { ClientPrincipal } from '../auth/principals.ts';
import { expiredMessage, isExpired } from './expiry.ts';
import { linkPreviewVariant } from '../storage/paths.ts';
import { clientOrigin, guestOrigin } from '../audit/origin.ts';
import type { AuditOrigin } from '../audit/record.ts';

export type GalleryRow = typeof galleries.$inferSelect;
export type ViewerRow = typeof proofViewers.$inferSelect;
type Ctx = Pick<APIContext, 'cookies' | 'request' | 'url' | 'locals'> & Partial<Pick<APIContext, 'clientAddress' | 'params'>>;

/** One request of a gallery's viewer. */
export type Viewing = {
  gallery: GalleryRow;
  ctx: Ctx;
  /** Where the viewer's files and ZIPs are fetched from. */
  fileBase: string;
  zipUrl: string;
} & ({ kind: 'client'; client: ClientPrincipal } | { kind: 'link'; link: LinkRow; visit: VisitRow });

export const NAME_NEEDED = 'Enter your name first, so the studio knows whose picks these are.';
export const GALLERY_GONE = 'This gallery is not available.';

/** 410 for an expired gallery, with the message its page shows too. */
function assertOpen(g: GalleryRow): void {
  if (isExpired(g)) throw new HttpError(410, expiredMessage(g));
}

/** The gallery a client may open (shared with their client), or null. Expired ones too (their page says so). */
export async function clientGallery(clientId: number, galleryId: number): Promise<GalleryRow | null> {
  const [row] = await db
    .select({ g: galleries })
    .from(galleryClients)
    .innerJoin(galleries, eq(galleries.id, galleryClients.galleryId))
    .where(and(eq(galleryClients.clientId, clientId), eq(galleryClients.galleryId, galleryId)))
    .limit(1);
  return row?.g ?? null;
}

/** The viewing a page renders with (its checks done by the page: it shows an expired gallery's notice itself). */
export function pageViewing(ctx: Ctx, gallery: GalleryRow, who: { client: ClientPrincipal } | { link: LinkRow; visit: VisitRow; token: string }): Viewing {
  if ('client' in who) return { kind: 'client', client: who.client, gallery, ctx, fileBase: `/client/galleries/${gallery.id}/f`, zipUrl: `/client/galleries/${gallery.id}/zip` };
  return { kind: 'link', link: who.link, visit: who.visit, gallery, ctx, fileBase: `/s/${who.token}/g`, zipUrl: `/s/${who.token}/g/zip` };
}

/** A client's request for gallery `ctx.params.id`: 401 signed out, 404 not theirs, 410 expired. */
export async function clientViewing(ctx: Ctx, idParam: string | undefined): Promise<Viewing> {
  const client = requireClient(ctx);
  const id = parseId(idParam, 'Gallery');
  const gallery = await clientGallery(client.clientId, id);
  if (!gallery) throw notFound('Gallery not found');
  assertOpen(gallery);
  return { kind: 'client', client, gallery, ctx, fileBase: `/client/galleries/${id}/f`, zipUrl: `/client/galleries/${id}/zip` };
}

/** The gallery a link shows, or null (not a gallery link, or the gallery is gone). */
export async function linkGallery(link: LinkRow): Promise<GalleryRow | null> {
  if (link.galleryId == null) return null;
  const [row] = await db.select().from(galleries).where(eq(galleries.id, link.galleryId)).limit(1);
  return row ?? null;
}

/** A link visitor's request: 404 unknown or revoked link, 401 without a pass, 410 expired gallery. */
export async function linkViewing(ctx: Ctx, token: string | undefined): Promise<Viewing> {
  const { link, visit } = await requireVisit(ctx as APIContext, token);
  const gallery = await linkGallery(link);
  if (!gallery) throw notFound(GALLERY_GONE);
  assertOpen(gallery);
  const v: Viewing = { kind: 'link', link, visit, gallery, ctx, fileBase: `/s/${token}/g`, zipUrl: `/s/${token}/g/zip` };
  await recallGuestName(v);
  return v;
}

const guestCookie = (linkId: number) => `studio_proof_${linkId}`;
const TOKEN_RE = /^[a-z2-7]{40}$/;
const GUEST_TTL_MS = 180 * 24 * 3600 * 1000;

/**
 * The viewer whose hearts and picks these are. A client login is one viewer per gallery; a
 * link's guest is known by a cookie of their own (kept 180 days, so their picks outlive a pass).
 * With `create`, a guest without one gets one, after they gave their name (400 otherwise).
 */
export async function viewerOf(v: Viewing, create: false): Promise<ViewerRow | null>;
export async function viewerOf(v: Viewing, create: true): Promise<ViewerRow>;
export async function viewerOf(v: Viewing, create: boolean): Promise<ViewerRow | null> {
  if (v.kind === 'client') {
    const where = and(eq(proofViewers.galleryId, v.gallery.id), eq(proofViewers.clientUserId, v.client.id));
    const [row] = await db.select().from(proofViewers).where(where).limit(1);
    if (row || !create) return row ?? null;
    await db.insert(proofViewers).values({ galleryId: v.gallery.id, clientUserId: v.client.id, name: v.client.name }).onConflictDoNothing();
    return (await db.select().from(proofViewers).where(where).limit(1))[0]!;
  }
  const token = v.ctx.cookies.get(guestCookie(v.link.id))?.value;
  if (token && TOKEN_RE.test(token)) {
    const [row] = await db
      .select()
      .from(proofViewers)
      .where(and(eq(proofViewers.tokenHash, sessionIdFromToken(token)), eq(proofViewers.linkId, v.link.id), eq(proofViewers.galleryId, v.gallery.id)))
      .limit(1);
    if (row) return row;
  }
  if (!create) return null;
  if (!v.visit.guestName) throw badRequest(NAME_NEEDED);
  const fresh = generateSessionToken();
  const [row] = await db
    .insert(proofViewers)
    .values({ galleryId: v.gallery.id, linkId: v.link.id, tokenHash: sessionIdFromToken(fresh), name: v.visit.guestName })
    .returning();
  v.ctx.cookies.set(guestCookie(v.link.id), fresh, { httpOnly: true, sameSite: 'lax', path: '/', secure: isHttps(v.ctx as APIContext), expires: new Date(Date.now() + GUEST_TTL_MS) });
  return row!;
}

/**
 * A guest back with a new pass (a pass lasts 7 days, their picks' cookie 180) is known by the name
 * they gave with their picks, so notes and downloads are theirs without asking for it again.
 */
export async function recallGuestName(v: Viewing): Promise<void> {
  if (v.kind !== 'link' || v.visit.guestName) return;
  const viewer = await viewerOf(v, false);
  if (viewer?.name) await setGuestName(v.visit, viewer.name);
}

/** A guest's name (and, if they like, an address for the expiry reminder), kept with their pass and their picks. */
export async function setGuestViewer(v: Viewing, name: string, email: string): Promise<{ name: string; email: string }> {
  if (v.kind !== 'link') throw notFound();
  await setGuestName(v.visit, name);
  const viewer = await viewerOf(v, true);
  await db.update(proofViewers).set({ name, email }).where(eq(proofViewers.id, viewer.id));
  return { name, email };
}

/**
 * A watermarked link's own marked copy of an image (`lp-{file key}.jpg`, made by the job queue
 * from the full-size WebP, at most 2,048 px): the one picture such a link shows or gives. null
 * for every other viewer.
 */
export const markedVariant = (v: Viewing): string | null => (v.kind === 'link' && v.link.watermark ? linkPreviewVariant(v.link, 'image') : null);

/** How the viewer is named to staff and in logs. */
/** The viewer as the audit log names them: the client, or the link's guest by name. */
export const viewerOrigin = (v: Viewing): AuditOrigin => (v.kind === 'client' ? clientOrigin(v.ctx) : guestOrigin(v.ctx, v.link, v.visit.guestName));

export const viewerName = (v: Viewing) => (v.kind === 'client' ? v.client.name : v.visit.guestName);

/** A line in the link's access log (links only: a client's downloads are in the gallery's own log). */
export async function logLinkAccess(v: Viewing, action: string, extra: { mediaId?: number | null; detail?: string } = {}): Promise<void> {
  if (v.kind === 'link') await logAccess(v.ctx as APIContext, v.link, action, { ...extra, guestName: v.visit.guestName });
}

export const addressOf = (v: Viewing) => (v.ctx.clientAddress === undefined ? null : clientIp(v.ctx as APIContext));
