// Share links as staff manage them (issue 17): make one for a set of items, list them with
// their use, revoke one, read its access log. The token is returned once, at creation; only
// its SHA-256 is stored (as for sessions), so a copied database cannot open links.
import { and, asc, count, desc, eq, inArray, isNull, lt, max, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { media, shareAccessLog, shareLinkItems, shareLinks, users } from '../../db/schema.ts';
import { badRequest, notFound } from '../http.ts';
import { hashPassword } from '../auth/password.ts';
import { generateSessionToken, sessionIdFromToken } from '../auth/tokens.ts';
import type { ShareLinkCreated, ShareLinkSummary, ShareLogPage } from '../../shared/schemas/share.ts';
import type { z } from '../../shared/zod.ts';
import type { shareLinkCreateSchema } from '../../shared/schemas/share.ts';
import { enqueueLinkPreviews } from './watermark-jobs.ts';
import { newFileKey } from '../storage/paths.ts';
import { isPublicSql, seesWholeLibrary } from '../media/visibility.ts';

export type LinkRow = typeof shareLinks.$inferSelect;
type CreateInput = z.output<typeof shareLinkCreateSchema>;

export const sharePath = (token: string) => `/s/${token}`;

export function linkState(link: Pick<LinkRow, 'revokedAt' | 'expiresAt'>, now = Date.now()): ShareLinkSummary['state'] {
  if (link.revokedAt) return 'revoked';
  if (link.expiresAt && link.expiresAt.getTime() <= now) return 'expired';
  return 'active';
}

/**
 * The items a member of staff may put on a link: those they may see (issue 31: share:media
 * alone does not open the library). An id that names nothing and one they may not see get the
 * same answer, so the answer tells nothing about which ids exist.
 */
async function assertShareable(mediaIds: number[], permissions: readonly string[]): Promise<void> {
  const whole = seesWholeLibrary(permissions);
  const found = await db
    .select({ id: media.id })
    .from(media)
    .where(and(inArray(media.id, mediaIds), whole ? undefined : sql`${isPublicSql} = 1`));
  const missing = mediaIds.find((id) => !found.some((f) => f.id === id));
  if (missing !== undefined) throw badRequest(`mediaIds: No media item ${missing}`);
}

/** `origin`: where the address will be opened (see publicOrigin in proxy.ts). */
export async function createShareLink(input: CreateInput, staff: { id: string; permissions: readonly string[] }, origin: string): Promise<ShareLinkCreated> {
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw badRequest('expiresAt: The expiry must be in the future');
  if (expiresAt && expiresAt.getTime() > Date.now() + 366 * 24 * 3600 * 1000) throw badRequest('expiresAt: A link can last at most a year');
  await assertShareable(input.mediaIds, staff.permissions);
  // 25 random bytes (200 bits), base32: the same generator as session tokens.
  const token = generateSessionToken();
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const linkId = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(shareLinks)
      .values({
        tokenHash: sessionIdFromToken(token),
        name: input.name,
        passwordHash,
        expiresAt,
        allowComment: input.allowComment,
        allowApprove: input.allowApprove,
        download: input.download,
        watermark: input.watermark,
        watermarkText: input.watermarkText,
        watermarkPosition: input.watermarkPosition,
        watermarkOpacity: input.watermarkOpacity,
        createdBy: staff.id,
        fileKey: newFileKey(),
      })
      .returning({ id: shareLinks.id });
    await tx.insert(shareLinkItems).values(input.mediaIds.map((mediaId, position) => ({ linkId: row!.id, mediaId, position })));
    await enqueueLinkPreviews(tx, { id: row!.id, watermark: input.watermark, download: input.download });
    return row!.id;
  });
  const [summary] = await listShareLinks([linkId]);
  return { ...summary!, url: `${origin}${sharePath(token)}` };
}

export async function listShareLinks(onlyIds?: number[]): Promise<ShareLinkSummary[]> {
  const rows = await db
    .select({ link: shareLinks, createdByName: sql<string | null>`coalesce(nullif(${users.displayName}, ''), ${users.username})` })
    .from(shareLinks)
    .leftJoin(users, eq(users.id, shareLinks.createdBy))
    // A client's own watermark row is not a link anyone was sent (client-watermark.ts).
    .where(and(onlyIds ? inArray(shareLinks.id, onlyIds) : undefined, isNull(shareLinks.clientId)))
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
  if (!rows.length) return [];
  const ids = rows.map((r) => r.link.id);
  const [items, opens] = await Promise.all([
    db
      .select({ linkId: shareLinkItems.linkId, id: media.id, title: media.title, type: media.type })
      .from(shareLinkItems)
      .innerJoin(media, eq(media.id, shareLinkItems.mediaId))
      .where(inArray(shareLinkItems.linkId, ids))
      .orderBy(asc(shareLinkItems.position)),
    db
      .select({ linkId: shareAccessLog.linkId, n: count(), last: max(shareAccessLog.createdAt).mapWith(Number) })
      .from(shareAccessLog)
      .where(and(inArray(shareAccessLog.linkId, ids), eq(shareAccessLog.action, 'open')))
      .groupBy(shareAccessLog.linkId),
  ]);
  const now = Date.now();
  return rows.map(({ link, createdByName }) => {
    const o = opens.find((x) => x.linkId === link.id);
    return {
      id: link.id,
      name: link.name,
      hasPassword: !!link.passwordHash,
      expiresAt: link.expiresAt?.toISOString() ?? null,
      revokedAt: link.revokedAt?.toISOString() ?? null,
      state: linkState(link, now),
      allowComment: link.allowComment,
      allowApprove: link.allowApprove,
      download: link.download,
      watermark: link.watermark,
      watermarkText: link.watermarkText,
      watermarkPosition: link.watermarkPosition,
      watermarkOpacity: link.watermarkOpacity,
      items: items.filter((i) => i.linkId === link.id).map(({ id, title, type }) => ({ id, title, type })),
      createdBy: createdByName,
      createdAt: link.createdAt.toISOString(),
      opens: Number(o?.n ?? 0),
      lastOpenedAt: o?.last != null ? new Date(o.last).toISOString() : null,
    };
  });
}

/** Takes effect on the visitor's next request: every request looks the link up again. */
export async function revokeShareLink(id: number): Promise<ShareLinkSummary> {
  const done = await db
    .update(shareLinks)
    .set({ revokedAt: new Date() })
    .where(and(eq(shareLinks.id, id), isNull(shareLinks.revokedAt), isNull(shareLinks.clientId)))
    .returning({ id: shareLinks.id });
  if (!done.length) {
    const [exists] = await db.select({ id: shareLinks.id }).from(shareLinks).where(and(eq(shareLinks.id, id), isNull(shareLinks.clientId))).limit(1);
    if (!exists) throw notFound('Share link not found');
  }
  const [summary] = await listShareLinks([id]);
  return summary!;
}

export const LOG_PAGE = 200;

/**
 * One page of the link's access log, newest first (issue 31: paged, so no number of reloads
 * or plays can push an older row out of reach). `cursor` is the last id of the page before;
 * ids only grow, so rows written meanwhile never shift a page.
 */
export async function shareLinkLog(id: number, cursor: number | null = null, limit = LOG_PAGE): Promise<ShareLogPage> {
  const [exists] = await db.select({ id: shareLinks.id }).from(shareLinks).where(and(eq(shareLinks.id, id), isNull(shareLinks.clientId))).limit(1);
  if (!exists) throw notFound('Share link not found');
  const rows = await db
    .select({ log: shareAccessLog, title: media.title })
    .from(shareAccessLog)
    .leftJoin(media, eq(media.id, shareAccessLog.mediaId))
    .where(and(eq(shareAccessLog.linkId, id), cursor != null ? lt(shareAccessLog.id, cursor) : undefined))
    .orderBy(desc(shareAccessLog.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const entries = page.map(({ log, title }) => ({
    id: log.id,
    at: log.createdAt.toISOString(),
    action: log.action,
    ip: log.ip,
    guestName: log.guestName,
    mediaTitle: title,
    detail: log.detail,
  }));
  return { entries, nextCursor: rows.length > limit ? String(page[page.length - 1]!.log.id) : null };
}
