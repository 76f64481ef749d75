// Share links as staff manage them (issue 17): make one for a set of items, list them with
// their use, revoke one, read its access log. The token is returned once, at creation; only
// its SHA-256 is stored (as for sessions), so a copied database cannot open links.
import { and, asc, count, desc, eq, inArray, isNull, max, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { media, shareAccessLog, shareLinkItems, shareLinks, users } from '../../db/schema.ts';
import { badRequest, notFound } from '../http.ts';
import { hashPassword } from '../auth/password.ts';
import { generateSessionToken, sessionIdFromToken } from '../auth/tokens.ts';
import type { ShareLinkCreated, ShareLinkSummary, ShareLogEntry } from '../../shared/schemas/share.ts';
import type { z } from '../../shared/zod.ts';
import type { shareLinkCreateSchema } from '../../shared/schemas/share.ts';
import { enqueueWatermarks } from './watermark-jobs.ts';

export type LinkRow = typeof shareLinks.$inferSelect;
type CreateInput = z.output<typeof shareLinkCreateSchema>;

export const sharePath = (token: string) => `/s/${token}`;

export function linkState(link: Pick<LinkRow, 'revokedAt' | 'expiresAt'>, now = Date.now()): ShareLinkSummary['state'] {
  if (link.revokedAt) return 'revoked';
  if (link.expiresAt && link.expiresAt.getTime() <= now) return 'expired';
  return 'active';
}

/** `origin`: where the address will be opened (see publicOrigin in proxy.ts). */
export async function createShareLink(input: CreateInput, staffUserId: string, origin: string): Promise<ShareLinkCreated> {
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw badRequest('expiresAt: The expiry must be in the future');
  if (expiresAt && expiresAt.getTime() > Date.now() + 366 * 24 * 3600 * 1000) throw badRequest('expiresAt: A link can last at most a year');
  const found = await db.select({ id: media.id }).from(media).where(inArray(media.id, input.mediaIds));
  if (found.length !== input.mediaIds.length) {
    const missing = input.mediaIds.filter((id) => !found.some((f) => f.id === id));
    throw badRequest(`mediaIds: No media item ${missing[0]}`);
  }
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
        createdBy: staffUserId,
      })
      .returning({ id: shareLinks.id });
    await tx.insert(shareLinkItems).values(input.mediaIds.map((mediaId, position) => ({ linkId: row!.id, mediaId, position })));
    if (input.watermark) await enqueueWatermarks(tx, row!.id);
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

export async function shareLinkLog(id: number): Promise<ShareLogEntry[]> {
  const [exists] = await db.select({ id: shareLinks.id }).from(shareLinks).where(and(eq(shareLinks.id, id), isNull(shareLinks.clientId))).limit(1);
  if (!exists) throw notFound('Share link not found');
  const rows = await db
    .select({ log: shareAccessLog, title: media.title })
    .from(shareAccessLog)
    .leftJoin(media, eq(media.id, shareAccessLog.mediaId))
    .where(eq(shareAccessLog.linkId, id))
    .orderBy(desc(shareAccessLog.createdAt), desc(shareAccessLog.id))
    .limit(LOG_PAGE);
  return rows.map(({ log, title }) => ({
    id: log.id,
    at: log.createdAt.toISOString(),
    action: log.action,
    ip: log.ip,
    guestName: log.guestName,
    mediaTitle: title,
    detail: log.detail,
  }));
}
