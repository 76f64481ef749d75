// Share links as staff manage them (issues 17 and 32): make one for a set of items, list them
// with their use, edit one, copy its address again, give it a new address, revoke one, read its
// access log. Links are looked up by the token's SHA-256 (as sessions are); the token itself is
// kept only encrypted with the server's key (link-key.ts), and given out only by the explicit
// "copy address" call, which is written to the link's log. It is in no list answer.
import { and, asc, count, desc, eq, inArray, isNull, lt, max, sql, type SQL } from 'drizzle-orm';
import type { APIContext } from 'astro';
import { db } from '../../db/index.ts';
import { galleries, galleryImages, media, mediaVersions, shareAccessLog, shareLinkItems, shareLinks, shareVisits, users, type WATERMARK_POSITIONS } from '../../db/schema.ts';
import { badRequest, clientIp, conflict, notFound } from '../http.ts';
import { hashPassword } from '../auth/password.ts';
import { forgetDevices } from '../auth/devices.ts';
import { generateSessionToken, sessionIdFromToken } from '../auth/tokens.ts';
import { WATERMARK_ORIGINAL_MESSAGE, type ShareLinkAddress, type ShareLinkCreated, type ShareLinkSummary, type ShareLogPage } from '../../shared/schemas/share.ts';
import type { z } from '../../shared/zod.ts';
import type { GalleryLinkSummary } from '../../shared/schemas/proofing.ts';
import type { shareLinkCreateSchema, shareLinkUpdateSchema } from '../../shared/schemas/share.ts';
import { decryptToken, encryptToken } from './link-key.ts';
import { enqueueLinkPreviews, renewLinkPreviews } from './watermark-jobs.ts';
import { linkPreviewVariant, newFileKey } from '../storage/paths.ts';
import { storage } from '../storage/index.ts';
import { inLibrarySql, isPublicSql, seesGalleryStills, seesWholeLibrary } from '../media/visibility.ts';
import { requireStaff } from '../auth/guard.ts';
import { staffOrigin } from '../audit/origin.ts';
import { auditIn, type AuditOrigin } from '../audit/record.ts';

export type LinkRow = typeof shareLinks.$inferSelect;
type CreateInput = z.output<typeof shareLinkCreateSchema>;
type UpdateInput = z.output<typeof shareLinkUpdateSchema>;
/** Who acts: their id and permissions (which items they may put on a link), a name for the log, and the audit's origin. */
export interface Editor {
  id: string;
  permissions: readonly string[];
  name: string;
  audit: AuditOrigin;
}

/** The signed-in staff member as an Editor (the endpoint has checked share:media). */
export function editorOf(ctx: Pick<APIContext, 'locals' | 'request'> & Partial<Pick<APIContext, 'clientAddress'>>): Editor {
  const user = requireStaff(ctx);
  return { id: user.id, permissions: ctx.locals.permissions, name: user.displayName || user.username, audit: staffOrigin(ctx) };
}

/** The audit log's name for a link: "Harbour cut" (#12). */
const linkObject = (link: { id: number; name: string }) => ({ type: 'share_link', id: link.id, name: link.name });

export const sharePath = (token: string) => `/s/${token}`;

export function linkState(link: Pick<LinkRow, 'revokedAt' | 'expiresAt'>, now = Date.now()): ShareLinkSummary['state'] {
  if (link.revokedAt) return 'revoked';
  if (link.expiresAt && link.expiresAt.getTime() <= now) return 'expired';
  return 'active';
}

/**
 * The items a member of staff may put on a link: those they may see (issue 31: share:media
 * alone does not open the library), and library items only: a gallery's still is shared with
 * its gallery's link (issue 53). An id that names nothing and one they may not see get the
 * same answer, so the answer tells nothing about which ids exist.
 */
async function assertShareable(mediaIds: number[], permissions: readonly string[]): Promise<void> {
  const whole = seesWholeLibrary(permissions);
  const found = await db
    .select({ id: media.id, inLibrary: inLibrarySql })
    .from(media)
    .where(and(inArray(media.id, mediaIds), whole ? undefined : sql`${isPublicSql} = 1`));
  const missing = mediaIds.find((id) => !found.some((f) => f.id === id));
  if (missing !== undefined) throw badRequest(`mediaIds: No media item ${missing}`);
  const still = found.find((f) => !f.inLibrary);
  if (still) throw badRequest(`mediaIds: Image ${still.id} belongs to a gallery: share it with a link to the gallery`);
}

/**
 * SQL: the links a member of staff may manage (list, read the log of, copy, edit, re-address,
 * revoke). An item link holds nothing its reader may not see (issue 40): a link is as private
 * as its most private item, so staff who could not put an item on a link cannot manage the link
 * either, or share:media alone would open every item any link holds. A gallery link (issue 42)
 * is its gallery's, managed by those who may make the gallery's links (view:media, which
 * /api/galleries/{id}/links asks beside share:media) whatever the gallery holds today (issue
 * 51): judged by its images, a link made while the gallery was empty was anyone's to unmark and
 * unlock before the private images arrived. Written with table names: the outer query may be
 * a single-table select, where drizzle leaves columns unqualified.
 */
function readableBy(permissions: readonly string[]) {
  if (seesGalleryStills(permissions)) return undefined;
  const itemLinksOnly = sql`"share_links"."gallery_id" IS NULL`;
  const holdsOnly = (allowed: SQL) => sql`NOT EXISTS (SELECT 1 FROM share_link_items sli JOIN media ON media.id = sli.media_id
    WHERE sli.link_id = "share_links"."id" AND NOT ${allowed})`;
  // edit:website without view:media: the library, but no gallery's uploaded still (issue 53).
  if (seesWholeLibrary(permissions)) return and(itemLinksOnly, holdsOnly(inLibrarySql));
  return and(itemLinksOnly, holdsOnly(isPublicSql));
}

/** An expiry as making or editing a link takes it: in the future, at most a year away. */
function checkExpiry(value: string | null): Date | null {
  const expiresAt = value ? new Date(value) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw badRequest('expiresAt: The expiry must be in the future');
  if (expiresAt && expiresAt.getTime() > Date.now() + 366 * 24 * 3600 * 1000) throw badRequest('expiresAt: A link can last at most a year');
  return expiresAt;
}

/** A new token for a link: the hash it is looked up by and the encrypted copy staff can copy again. */
function newToken(): { token: string; tokenHash: string; tokenEnc: string } {
  // 25 random bytes (200 bits), base32: the same generator as session tokens.
  const token = generateSessionToken();
  const tokenHash = sessionIdFromToken(token);
  return { token, tokenHash, tokenEnc: encryptToken(token, tokenHash) };
}

/** What a new link row holds besides its token, password, expiry and file key. */
type LinkFields = Omit<typeof shareLinks.$inferInsert, 'id' | 'tokenHash' | 'tokenEnc' | 'passwordHash' | 'expiresAt' | 'fileKey' | 'createdBy'>;

/**
 * The one way a link is made, a video link or a gallery link: a new token, the password
 * hashed, the row, its items and its watermarked previews' jobs in one transaction. Answers
 * the link as the list shows it, with the address (the only time the token is shown whole
 * outside "copy address").
 */
async function insertLink(
  fields: LinkFields & { password: string; expiresAt: string | null },
  mediaIds: number[],
  staff: Editor,
  origin: string,
): Promise<ShareLinkCreated> {
  const { password, expiresAt: expiry, ...row } = fields;
  const expiresAt = checkExpiry(expiry);
  const { token, tokenHash, tokenEnc } = newToken();
  const passwordHash = password ? await hashPassword(password) : null;
  const id = await db.transaction(async (tx) => {
    const [link] = await tx
      .insert(shareLinks)
      .values({ ...row, tokenHash, tokenEnc, passwordHash, expiresAt, createdBy: staff.id, fileKey: newFileKey() })
      .returning({ id: shareLinks.id, watermark: shareLinks.watermark, download: shareLinks.download, downloadsAfterApproval: shareLinks.downloadsAfterApproval, galleryId: shareLinks.galleryId });
    if (mediaIds.length) await tx.insert(shareLinkItems).values(mediaIds.map((mediaId, position) => ({ linkId: link!.id, mediaId, position })));
    // A watermarked link shows its own marked copy of every item (the job queue).
    await enqueueLinkPreviews(tx, link!);
    await auditIn(tx, staff.audit, {
      kind: 'share_link.created',
      object: linkObject({ id: link!.id, name: row.name }),
      detail: { items: mediaIds.length, galleryId: row.galleryId ?? null, download: row.download, password: !!passwordHash, expiresAt: expiresAt?.toISOString() ?? null },
    });
    return link!.id;
  });
  const [summary] = await listShareLinks(staff.permissions, [id]);
  return { ...summary!, url: `${origin}${sharePath(token)}` };
}

export async function createShareLink(input: CreateInput, staff: Editor, origin: string): Promise<ShareLinkCreated> {
  await assertShareable(input.mediaIds, staff.permissions);
  const { mediaIds, ...fields } = input;
  return insertLink(fields, mediaIds, staff, origin);
}

/**
 * A link to a proofing gallery (issue 42): the link rules of any link (password, expiry,
 * passes, log); what it shows and lets its visitors download is the gallery's (proofing/).
 */
export async function createGalleryLink(
  galleryId: number,
  input: { name: string; password: string; expiresAt: string | null; allowComment: boolean; watermark: boolean; watermarkText: string; watermarkPosition: (typeof WATERMARK_POSITIONS)[number]; watermarkOpacity: number },
  staff: Editor,
  origin: string,
): Promise<ShareLinkCreated> {
  return insertLink({ ...input, download: 'none', downloadsAfterApproval: false, galleryId }, [], staff, origin);
}

export async function listGalleryLinks(galleryId: number): Promise<GalleryLinkSummary[]> {
  const rows = await db.select().from(shareLinks).where(eq(shareLinks.galleryId, galleryId)).orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
  if (!rows.length) return [];
  const opens = await db
    .select({ linkId: shareAccessLog.linkId, n: count() })
    .from(shareAccessLog)
    .where(and(inArray(shareAccessLog.linkId, rows.map((r) => r.id)), eq(shareAccessLog.action, 'open')))
    .groupBy(shareAccessLog.linkId);
  return rows.map((l) => ({
    id: l.id,
    name: l.name,
    hasPassword: !!l.passwordHash,
    watermark: l.watermark,
    expiresAt: l.expiresAt?.toISOString() ?? null,
    state: linkState(l),
    allowComment: l.allowComment,
    opens: Number(opens.find((o) => o.linkId === l.id)?.n ?? 0),
    createdAt: l.createdAt.toISOString(),
  }));
}

/** The links `permissions` may read (see readableBy), newest first. */
export async function listShareLinks(permissions: readonly string[], onlyIds?: number[]): Promise<ShareLinkSummary[]> {
  const rows = await db
    .select({ link: shareLinks, createdByName: sql<string | null>`coalesce(nullif(${users.displayName}, ''), ${users.username})`, galleryTitle: galleries.title })
    .from(shareLinks)
    .leftJoin(users, eq(users.id, shareLinks.createdBy))
    .leftJoin(galleries, eq(galleries.id, shareLinks.galleryId))
    // A client's own watermark row is not a link anyone was sent (client-watermark.ts).
    .where(and(onlyIds ? inArray(shareLinks.id, onlyIds) : undefined, isNull(shareLinks.clientId), readableBy(permissions)))
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
  return rows.map(({ link, createdByName, galleryTitle }) => {
    const o = opens.find((x) => x.linkId === link.id);
    return {
      id: link.id,
      name: link.name,
      gallery: link.galleryId != null ? { id: link.galleryId, title: galleryTitle ?? '' } : null,
      hasPassword: !!link.passwordHash,
      expiresAt: link.expiresAt?.toISOString() ?? null,
      revokedAt: link.revokedAt?.toISOString() ?? null,
      state: linkState(link, now),
      allowComment: link.allowComment,
      allowApprove: link.allowApprove,
      download: link.download,
      downloadsAfterApproval: link.downloadsAfterApproval,
      watermark: link.watermark,
      watermarkText: link.watermarkText,
      watermarkPosition: link.watermarkPosition,
      watermarkOpacity: link.watermarkOpacity,
      items: items.filter((i) => i.linkId === link.id).map(({ id, title, type }) => ({ id, title, type })),
      createdBy: createdByName,
      createdAt: link.createdAt.toISOString(),
      opens: Number(o?.n ?? 0),
      lastOpenedAt: o?.last != null ? new Date(o.last).toISOString() : null,
      addressKept: link.tokenEnc !== null,
    };
  });
}

/** Takes effect on the visitor's next request: every request looks the link up again. */
export async function revokeShareLink(id: number, staff: Editor): Promise<ShareLinkSummary> {
  const link = await staffLink(id, staff.permissions);
  if (!link.revokedAt) {
    await db.transaction(async (tx) => {
      const done = await tx.update(shareLinks).set({ revokedAt: new Date() }).where(and(eq(shareLinks.id, id), isNull(shareLinks.revokedAt))).returning({ id: shareLinks.id });
      if (done.length) await auditIn(tx, staff.audit, { kind: 'share_link.revoked', object: linkObject(link) });
    });
  }
  const [summary] = await listShareLinks(staff.permissions, [id]);
  return summary!;
}

/**
 * A staff link (not a client's own watermark row) that `permissions` may read, or 404: a link
 * holding an item they may not see answers as one that does not exist (see readableBy).
 */
async function staffLink(id: number, permissions: readonly string[]): Promise<LinkRow> {
  const [link] = await db
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.id, id), isNull(shareLinks.clientId), readableBy(permissions)))
    .limit(1);
  if (!link) throw notFound('Share link not found');
  return link;
}

type LogCtx = Pick<APIContext, 'request'> & Partial<Pick<APIContext, 'clientAddress'>>;

type Executor = Pick<typeof db, 'insert'>;

async function logStaffAction(ctx: LogCtx, linkId: number, action: string, detail: string, r: Executor = db): Promise<void> {
  const ip = ctx.clientAddress === undefined ? null : clientIp(ctx as APIContext);
  await r.insert(shareAccessLog).values({ linkId, action, ip, guestName: '', detail: detail.slice(0, 500) });
}

export const ADDRESS_NOT_KEPT =
  'This link was made before addresses were kept, so its address cannot be shown again. Make it a new address (the old one then stops working).';
export const ADDRESS_UNREADABLE =
  'This link’s address was kept under another server key, so it cannot be shown again. Make it a new address (the old one then stops working).';

export const ADDRESS_REVOKED = 'This link is revoked, so its address opens nothing; make a new link instead.';

/**
 * The link's address, given again (issue 32): only by this explicit call, which is written to
 * the link's access log with the staff member's name. 409 for a revoked link (issue 40), for
 * links made before addresses were kept (and any whose key is not this server's).
 */
export async function shareLinkAddress(ctx: LogCtx, id: number, staff: Editor, origin: string): Promise<ShareLinkAddress> {
  const link = await staffLink(id, staff.permissions);
  if (link.revokedAt) throw conflict(ADDRESS_REVOKED);
  if (link.tokenEnc === null) throw conflict(ADDRESS_NOT_KEPT);
  const token = decryptToken(link.tokenEnc, link.tokenHash);
  if (token === null) throw conflict(ADDRESS_UNREADABLE);
  await db.transaction(async (tx) => {
    await logStaffAction(ctx, link.id, 'address copied', `by ${staff.name}`, tx);
    await auditIn(tx, staff.audit, { kind: 'share_link.address_copied', object: linkObject(link) });
  });
  return { id: link.id, url: `${origin}${sharePath(token)}` };
}

/**
 * A new address for the same link (issue 32: links made before addresses were kept, or a
 * leaked address): the token is replaced on the same row, so the old address answers 404 from
 * the next request; settings, items, previews and log stay. Passes made through the old
 * address end too. A revoked link stays off (409).
 */
export async function newShareLinkAddress(ctx: LogCtx, id: number, staff: Editor, origin: string): Promise<ShareLinkAddress> {
  const link = await staffLink(id, staff.permissions);
  if (link.revokedAt) throw conflict('This link is revoked; make a new link instead.');
  const { token, tokenHash, tokenEnc } = newToken();
  await db.transaction(async (tx) => {
    await tx.update(shareLinks).set({ tokenHash, tokenEnc }).where(eq(shareLinks.id, link.id));
    await tx.delete(shareVisits).where(eq(shareVisits.linkId, link.id));
    await logStaffAction(ctx, link.id, 'new address', `by ${staff.name}; the old address no longer opens`, tx);
    await auditIn(tx, staff.audit, { kind: 'share_link.new_address', object: linkObject(link) });
  });
  return { id: link.id, url: `${origin}${sharePath(token)}` };
}

/**
 * Edits a link (issue 32), validated as making one: the same field rules (the schema), an
 * expiry in the future and at most a year away, only items the editor may see, and no original
 * downloads on a watermarked link. Every visitor request looks the link up again, so the change
 * applies to visitors already in on their next request. Setting, changing or removing the
 * password ends the passes already made (a visitor opens the link again, with the new password
 * when there is one). A changed watermark, item list or download option (or a name the default
 * watermark text shows) queues new previews, replacing earlier jobs for the same versions.
 */
export async function updateShareLink(ctx: LogCtx, id: number, input: UpdateInput, staff: Editor): Promise<ShareLinkSummary> {
  // The items it holds now count as much as the ones sent: an edit hands all of them out anew.
  const link = await staffLink(id, staff.permissions);
  if (link.revokedAt) throw conflict('This link is revoked and cannot be edited; make a new link instead.');
  // A gallery link shows its gallery, whose settings decide its downloads (issue 42).
  if (link.galleryId != null) {
    if (input.mediaIds) throw badRequest('mediaIds: A gallery link shows its gallery; add or remove images in the gallery');
    if (input.allowApprove || (input.download && input.download !== 'none') || input.downloadsAfterApproval) {
      throw badRequest('A gallery link’s downloads follow the gallery’s settings, and it has no approving');
    }
  }
  const next = {
    watermark: input.watermark ?? link.watermark,
    download: input.download ?? link.download,
  };
  if (next.watermark && next.download === 'original') throw badRequest(`download: ${WATERMARK_ORIGINAL_MESSAGE}`);
  const expiresAt = input.expiresAt !== undefined ? checkExpiry(input.expiresAt) : undefined;
  if (input.mediaIds) await assertShareable(input.mediaIds, staff.permissions);
  const passwordHash = input.password === undefined ? undefined : input.password === '' ? null : await hashPassword(input.password);

  const set: Partial<typeof shareLinks.$inferInsert> = {};
  const changed: string[] = [];
  const put = <K extends keyof typeof shareLinks.$inferInsert>(key: K, value: (typeof shareLinks.$inferInsert)[K] | undefined, label: string, same: boolean) => {
    if (value === undefined || same) return;
    set[key] = value;
    changed.push(label);
  };
  put('name', input.name, 'name', input.name === link.name);
  put('expiresAt', expiresAt, 'expiry', (expiresAt?.getTime() ?? null) === (link.expiresAt?.getTime() ?? null));
  put('allowComment', input.allowComment, 'comments', input.allowComment === link.allowComment);
  put('allowApprove', input.allowApprove, 'approving', input.allowApprove === link.allowApprove);
  put('download', input.download, 'downloads', input.download === link.download);
  put('downloadsAfterApproval', input.downloadsAfterApproval, input.downloadsAfterApproval ? 'downloads wait for approval' : 'downloads no longer wait for approval', input.downloadsAfterApproval === link.downloadsAfterApproval);
  put('watermark', input.watermark, 'watermark', input.watermark === link.watermark);
  put('watermarkText', input.watermarkText, 'watermark text', input.watermarkText === link.watermarkText);
  put('watermarkPosition', input.watermarkPosition, 'watermark position', input.watermarkPosition === link.watermarkPosition);
  put('watermarkOpacity', input.watermarkOpacity, 'watermark opacity', input.watermarkOpacity === link.watermarkOpacity);
  // A password given is a change even when the same (its hash is new); '' on a link without one is none.
  const passwordChanged = passwordHash !== undefined && !(passwordHash === null && link.passwordHash === null);
  if (passwordChanged) {
    set.passwordHash = passwordHash;
    changed.push(passwordHash ? (link.passwordHash ? 'password changed' : 'password set') : 'password removed');
  }
  let itemsChanged = false;
  if (input.mediaIds) {
    const current = await db.select({ mediaId: shareLinkItems.mediaId }).from(shareLinkItems).where(eq(shareLinkItems.linkId, link.id)).orderBy(asc(shareLinkItems.position));
    itemsChanged = current.map((c) => c.mediaId).join(',') !== input.mediaIds.join(',');
    if (itemsChanged) changed.push('items');
  }
  const merged = { ...link, ...set };
  // What the previews show: a new look gets new file names (below).
  const lookChanged =
    set.watermark !== undefined ||
    (merged.watermark && (set.watermarkText !== undefined || set.watermarkPosition !== undefined || set.watermarkOpacity !== undefined || (set.name !== undefined && !merged.watermarkText.trim())));
  // Which previews the link needs: the same files, more or fewer of them.
  const previewsChanged =
    lookChanged ||
    set.download !== undefined ||
    // A gated link shows previews while its gate is closed (issue 40).
    set.downloadsAfterApproval !== undefined ||
    itemsChanged;

  // A new look gets new file names (issue 40): the old `lp-…` names stop answering with this
  // update, not when the new previews are made, so a clean preview is never served by a link
  // switched to watermarked (nor an old text once it is changed) while the worker catches up.
  const heldBefore = lookChanged
    ? link.galleryId != null
      ? (await db.select({ id: galleryImages.mediaId }).from(galleryImages).where(eq(galleryImages.galleryId, link.galleryId))).map((r) => r.id)
      : (await db.select({ id: shareLinkItems.mediaId }).from(shareLinkItems).where(eq(shareLinkItems.linkId, link.id))).map((r) => r.id)
    : [];
  if (lookChanged) set.fileKey = newFileKey();

  if (changed.length) {
    await db.transaction(async (tx) => {
      if (Object.keys(set).length) await tx.update(shareLinks).set(set).where(eq(shareLinks.id, link.id));
      if (itemsChanged) {
        await tx.delete(shareLinkItems).where(eq(shareLinkItems.linkId, link.id));
        await tx.insert(shareLinkItems).values(input.mediaIds!.map((mediaId, position) => ({ linkId: link.id, mediaId, position })));
      }
      if (passwordChanged) {
        await tx.delete(shareVisits).where(eq(shareVisits.linkId, link.id));
        // A device counts on its own only while its holder knows the password (access.ts).
        await forgetDevices('share', link.id, tx);
      }
      const needs = { id: link.id, watermark: merged.watermark, download: merged.download, downloadsAfterApproval: merged.downloadsAfterApproval, galleryId: link.galleryId };
      if (lookChanged) await renewLinkPreviews(tx, needs);
      else if (previewsChanged) await enqueueLinkPreviews(tx, needs);
      await logStaffAction(ctx, link.id, 'edited', `by ${staff.name}: ${changed.join(', ')}`, tx);
      await auditIn(tx, staff.audit, { kind: 'share_link.edited', object: linkObject({ id: link.id, name: merged.name }), detail: { changed } });
    });
    if (lookChanged) await dropPreviews(link.fileKey, [...new Set([...heldBefore, ...(input.mediaIds ?? [])])]);
  }
  const [summary] = await listShareLinks(staff.permissions, [link.id]);
  return summary!;
}

/**
 * Frees the space of a link's previews made under an earlier file key. Those names already
 * answer nothing (the link names its files by its current key), so this is housekeeping: a
 * failure is logged, not the edit's, and a preview job that was running under the old key may
 * still leave its file behind, unreachable.
 */
async function dropPreviews(fileKey: string, mediaIds: number[]): Promise<void> {
  if (!fileKey || !mediaIds.length) return;
  const versions = await db
    .select({ storageKey: mediaVersions.storageKey, type: media.type })
    .from(mediaVersions)
    .innerJoin(media, eq(media.id, mediaVersions.mediaId))
    .where(inArray(mediaVersions.mediaId, mediaIds));
  for (const v of versions) {
    await storage.remove(v.storageKey, linkPreviewVariant({ fileKey }, v.type)).catch((e: unknown) => console.error(`Could not remove an old link preview: ${String(e)}`));
  }
}

export const LOG_PAGE = 200;

/**
 * One page of the link's access log, newest first (issue 31: paged, so no number of reloads
 * or plays can push an older row out of reach). `cursor` is the last id of the page before;
 * ids only grow, so rows written meanwhile never shift a page.
 */
export async function shareLinkLog(id: number, permissions: readonly string[], cursor: number | null = null, limit = LOG_PAGE): Promise<ShareLogPage> {
  await staffLink(id, permissions);
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
