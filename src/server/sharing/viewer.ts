// What a share link's visitor sees and may fetch (issues 17, 31 and 40). Files are served under
// the link's own address, /s/{token}/m/{mediaId}/{variant}, and only the ones the link allows
// (link-files.ts): a watermarked link reaches its preview and nothing else (no clean proxy,
// poster or original); the original needs a link that offers original downloads; a link that
// withholds it, or holds it back until approval, shows images and remuxed videos through a
// preview of its own and the ladder's encodes up to 1080p, never a file that is the original's
// picture at full size or its streams byte for byte.
import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { APIContext } from 'astro';
import { db } from '../../db/index.ts';
import { galleryImages, media, mediaVersions, shareComments, shareLinkItems, shareLinks, timelineNotes } from '../../db/schema.ts';
import { readShapes, safeMs } from '../review/note-fields.ts';
import { MAX_TIMELINE_SECONDS } from '../../shared/schemas/notes.ts';
import { errorResponse } from '../http.ts';
import { linkDownloadName, serveStoredFile } from '../media/delivery.ts';
import { isCaptionFile, serveCaptionFile } from '../captions/files.ts';
import { playbackFields, progressive } from '../media/playback.ts';
import { linkPreviewVariant, VARIANT_RE } from '../storage/paths.ts';
import type { ShareComment, ShareItem, ShareView } from '../../shared/schemas/share.ts';
import { logAccess, requireVisit, type VisitRow } from './access.ts';
import type { LinkRow } from './links.ts';
import { previewStates } from './watermark-jobs.ts';
import { allowedVariant, downloadsWait, linkRenditions, previewDownloadVariant, variantOf, viaPreview } from './link-files.ts';
import { probeFacts } from '../review/versions.ts';
import { DOWNLOADS_AFTER_APPROVAL_MESSAGE } from '../../shared/schemas/review.ts';
import { audit } from '../audit/record.ts';
import { guestOrigin } from '../audit/origin.ts';
import { cuesFor } from '../captions/cue-notes.ts';

type Row = { item: typeof media.$inferSelect; version: typeof mediaVersions.$inferSelect };

/** The link's items, in the order staff chose, each with its current version. */
async function linkItems(link: LinkRow, onlyMediaId?: number): Promise<Row[]> {
  return db
    .select({ item: media, version: mediaVersions })
    .from(shareLinkItems)
    .innerJoin(media, eq(media.id, shareLinkItems.mediaId))
    .innerJoin(mediaVersions, eq(mediaVersions.storageKey, media.storageKey))
    .where(and(eq(shareLinkItems.linkId, link.id), onlyMediaId ? eq(media.id, onlyMediaId) : undefined))
    .orderBy(asc(shareLinkItems.position));
}

/**
 * The links whose visitors see an item now (issue 41, who is told of a change): visitor links
 * (not a client's own watermark row) holding it, neither revoked nor expired; and links to a
 * proofing gallery holding it (issue 53: a watermarked gallery's page hears when its marked copy
 * of the image is made). A gallery's stills have no live sessions: those links count as without
 * comments here.
 */
export async function activeLinksHolding(mediaId: number, now = new Date()): Promise<{ id: number; allowComment: boolean }[]> {
  const open = and(isNull(shareLinks.revokedAt), isNull(shareLinks.clientId), or(isNull(shareLinks.expiresAt), gt(shareLinks.expiresAt, now)));
  const [items, galleries] = await Promise.all([
    db
      .select({ id: shareLinks.id, allowComment: shareLinks.allowComment })
      .from(shareLinkItems)
      .innerJoin(shareLinks, eq(shareLinks.id, shareLinkItems.linkId))
      .where(and(eq(shareLinkItems.mediaId, mediaId), open)),
    db
      .select({ id: shareLinks.id })
      .from(galleryImages)
      .innerJoin(shareLinks, eq(shareLinks.galleryId, galleryImages.galleryId))
      .where(and(eq(galleryImages.mediaId, mediaId), open)),
  ]);
  return [...items, ...galleries.map((l) => ({ id: l.id, allowComment: false }))];
}

/** One item of the link (404 when the link does not hold it). */
export async function linkItem(link: LinkRow, mediaId: number): Promise<Row | null> {
  const [row] = await linkItems(link, mediaId);
  return row ?? null;
}

/**
 * The version's decision as this link's visitors see it: in full when it was made through this
 * link; otherwise the status alone (a client's note and name are not theirs to read).
 */
function approvalFor(link: LinkRow, version: Row['version']): ShareItem['approval'] {
  const decided = version.approvalStatus !== 'in_review';
  const ours = decided && version.approvalLinkId === link.id;
  return {
    status: version.approvalStatus,
    by: ours ? version.approvalGuest : null,
    at: decided ? (version.approvalAt?.toISOString() ?? null) : null,
    note: ours ? version.approvalNote : null,
    locked: version.approvalLocked,
  };
}

export async function shareView(link: LinkRow, visit: VisitRow, token: string): Promise<ShareView> {
  const rows = await linkItems(link);
  const previews = await previewStates(link.id, rows.filter((r) => viaPreview(link, r)).map((r) => r.version.id));
  const items: ShareItem[] = rows.map((cur) => {
    const { item, version } = cur;
    const base = `/s/${token}/m/${item.id}/`;
    const at = (variant: string | null, v?: number | string | null) => (variant ? `${base}${variant}${v ? `?v=${v}` : ''}` : null);
    const approval = approvalFor(link, version);
    const waits = downloadsWait(link, cur);
    const shared = {
      downloadBlockedReason: waits && link.download !== 'none' ? DOWNLOADS_AFTER_APPROVAL_MESSAGE : null,
      id: item.id,
      title: item.title,
      type: item.type,
      version: version.number,
      versionId: version.id,
      durationSeconds: version.durationSeconds,
      frameRate: probeFacts(version.probe).frameRate,
      approval,
    };
    const playback = playbackFields({ ...version, type: item.type });
    // Playback URLs point into the item's folder under /media: re-address them under the link.
    const relink = (url: string | null) => (url ? `${base}${url.slice(url.lastIndexOf('/') + 1)}` : null);
    if (viaPreview(link, cur)) {
      const state = previews.get(version.id);
      const url = state?.jobId ? at(linkPreviewVariant(link, item.type), state.jobId) : null;
      // A clean link keeps the small stills (poster, thumbnails, seek sprite); a watermarked one
      // shows nothing unmarked at all.
      const clean = !link.watermark;
      const video = item.type === 'video';
      return {
        ...shared,
        processingStatus: video ? (url ? 'ready' : 'processing') : null,
        processingProgress: url ? 100 : 0,
        processingError: null,
        playbackUrl: video ? url : null,
        renditions: [],
        // One size, the link's own preview: nothing to stream (issue 33).
        streamUrl: null,
        spriteUrl: clean && video && version.processingStatus === 'ready' ? relink(playback.spriteUrl) : null,
        posterUrl: clean ? relink(version.posterUrl) : null,
        thumbnailUrl: clean ? relink(version.thumbnailWebpUrl ?? version.thumbnailUrl) : video ? null : url,
        imageUrl: video ? null : url,
        downloadUrl: url && link.download === 'preview' && !waits ? `${url}&download=1` : null,
        previewPending: !url,
      };
    }
    // While downloads wait for approval the original is not even played or shown (it is a download).
    const originalAllowed = link.download === 'original' && !waits;
    // Behind a closed gate, the encodes up to 1080p only (issue 40; link-files.ts).
    const shown = new Set<string | null>(linkRenditions(link, cur).map((r) => r.variant));
    const renditions = playback.renditions.filter((r) => shown.has(variantOf(r.url)));
    const streamed = linkRenditions(link, cur).some((r) => r.hls);
    const playbackUrl = renditions[0] ? relink(progressive(renditions)!.url) : originalAllowed ? relink(playback.playbackUrl) : null;
    const previewVariant = previewDownloadVariant(link, cur);
    return {
      ...shared,
      ...playback,
      playbackUrl,
      renditions: renditions.map((r) => ({ ...r, url: relink(r.url)! })),
      // The playlists name their files relatively, so under the link they fetch through it; the
      // master names only the sizes the link plays (serveLinkFile).
      streamUrl: streamed ? relink(playback.streamUrl) : null,
      spriteUrl: relink(playback.spriteUrl),
      posterUrl: relink(version.posterUrl),
      thumbnailUrl: relink(version.thumbnailWebpUrl ?? version.thumbnailUrl),
      imageUrl: item.type === 'image' ? relink(version.webpUrl) ?? (originalAllowed ? relink(version.url) : null) : null,
      downloadUrl: waits
        ? null
        : link.download === 'original'
          ? `${relink(version.url)}?download=1`
          : link.download === 'preview' && previewVariant
            ? `${base}${previewVariant}?download=1`
            : null,
      previewPending: false,
    };
  });
  return {
    name: link.name,
    guestName: visit.guestName,
    allowComment: link.allowComment,
    allowApprove: link.allowApprove,
    download: link.download,
    downloadsAfterApproval: link.downloadsAfterApproval,
    watermark: link.watermark,
    expiresAt: link.expiresAt?.toISOString() ?? null,
    items,
    comments: [...(await linkComments(link.id, rows.map((r) => r.item.id))), ...(await studioNotes(rows.map((r) => r.version.id)))],
  };
}

/**
 * The studio's notes on the versions a link shows (issue 29, one thread), as comments with
 * `source: 'staff'`: never an internal one.
 */
async function studioNotes(versionIds: number[]): Promise<ShareComment[]> {
  if (!versionIds.length) return [];
  const rows = await db
    .select({
      n: timelineNotes,
      number: mediaVersions.number,
      timestampMs: safeMs(timelineNotes.timestampMs, timelineNotes.timestampSeconds, sql`coalesce(${mediaVersions.durationSeconds}, ${MAX_TIMELINE_SECONDS})`),
    })
    .from(timelineNotes)
    .innerJoin(mediaVersions, eq(mediaVersions.id, timelineNotes.versionId))
    .where(and(inArray(timelineNotes.versionId, versionIds), eq(timelineNotes.byStaff, true), eq(timelineNotes.internal, false)))
    .orderBy(asc(timelineNotes.createdAt), asc(timelineNotes.id));
  const cues = await cuesFor('client', rows.map((r) => r.n.id));
  return rows.map(({ n, number, timestampMs }) => ({
    id: n.id,
    mediaId: n.mediaId,
    versionNumber: number,
    guestName: n.authorName,
    kind: 'note',
    rating: null,
    timestampSeconds: Math.floor(timestampMs / 1000),
    timestampMs,
    endMs: n.endMs,
    shapes: readShapes(n.shapes),
    resolvedAt: n.resolvedAt?.toISOString() ?? null,
    source: 'staff',
    text: n.noteText,
    createdAt: n.createdAt.toISOString(),
    cue: cues.get(n.id) ?? null,
  }));
}

/** Guest comments on `mediaIds`: one link's (for its visitors), or every link's with its name (staff). */
export async function linkComments(linkId: number | null, mediaIds: number[]): Promise<ShareComment[]> {
  if (!mediaIds.length) return [];
  const rows = await db
    .select({
      c: shareComments,
      number: mediaVersions.number,
      linkName: shareLinks.name,
      timestampMs: safeMs(shareComments.timestampMs, shareComments.timestampSeconds, sql`coalesce(${mediaVersions.durationSeconds}, ${MAX_TIMELINE_SECONDS})`),
    })
    .from(shareComments)
    .innerJoin(shareLinks, eq(shareLinks.id, shareComments.linkId))
    .leftJoin(mediaVersions, eq(mediaVersions.id, shareComments.versionId))
    .where(and(inArray(shareComments.mediaId, mediaIds), linkId != null ? eq(shareComments.linkId, linkId) : undefined))
    .orderBy(asc(shareComments.createdAt), asc(shareComments.id));
  const cues = await cuesFor('link', rows.map((r) => r.c.id));
  return rows.map(({ c, number, linkName, timestampMs }) => ({
    ...(linkId == null ? { linkName } : {}),
    id: c.id,
    mediaId: c.mediaId,
    versionNumber: number,
    guestName: c.guestName,
    kind: c.kind,
    rating: c.rating,
    timestampSeconds: c.kind === 'note' ? Math.floor(timestampMs / 1000) : c.timestampSeconds,
    timestampMs: c.kind === 'note' ? timestampMs : null,
    endMs: c.endMs,
    shapes: readShapes(c.shapes),
    resolvedAt: c.resolvedAt?.toISOString() ?? null,
    source: 'link' as const,
    text: c.text,
    createdAt: c.createdAt.toISOString(),
    cue: cues.get(c.id) ?? null,
  }));
}

/** GET/HEAD /s/{token}/m/{mediaId}/{variant}: one file, if the link allows it. */
export async function serveLinkFile(ctx: APIContext): Promise<Response> {
  const { token, mediaId, file } = ctx.params;
  const { link, visit } = await requireVisit(ctx, token);
  const id = /^[1-9]\d{0,15}$/.test(mediaId ?? '') ? Number(mediaId) : null;
  if (id && file && isCaptionFile(file)) return serveLinkCaptions(ctx, link, visit, id, file);
  if (!id || !file || !VARIANT_RE.test(file)) return errorResponse(404, 'Not found');
  const cur = await linkItem(link, id);
  const download = ctx.url.searchParams.get('download') === '1';
  if (!cur || !allowedVariant(link, cur, file, download)) return errorResponse(404, 'Not found');
  // Downloads that wait for approval (issue 30): until the current version is approved, every
  // download request of a file the link lets its visitor download is refused with the reason:
  // any ?download=1, and the original by any address (it is only ever a download). A preview the
  // link also plays is still served without ?download=1, as on a link with no downloads.
  if (downloadsWait(link, cur) && (download || file.startsWith('original.')) && allowedVariant(link, cur, file, true)) {
    return errorResponse(403, DOWNLOADS_AFTER_APPROVAL_MESSAGE);
  }
  // Every transfer of a file the link lets its visitor download is logged when it starts at
  // byte 0, whatever the address says (with or without ?download=1, any Range header): a
  // player's later range requests are not. Files the link only shows are not downloads.
  // While downloads wait for approval (issue 30) nothing served is a download: only playing.
  const downloadable = allowedVariant(link, cur, file, true) && !downloadsWait(link, cur);
  const onTransfer = async (fromStart: boolean) => {
    if (!downloadable || !fromStart) return;
    const kind = file.startsWith('original.') ? 'original' : 'preview';
    await logAccess(ctx, link, 'download', { mediaId: id, guestName: visit.guestName, detail: download ? kind : `${kind} (played or fetched without ?download=1)` });
    if (kind === 'original') await audit(db, guestOrigin(ctx, link, visit.guestName), { kind: 'download.original', object: { type: 'media', id, name: cur.item.title }, detail: { file, linkId: link.id } });
  };
  const { item, version } = cur;
  const target = { id: item.id, mimeType: version.mimeType, filename: version.filename, title: item.title, isPublic: false };
  // Downloads keep the item's own name ("Brand film (preview).mp4"), not the link's file key;
  // the master playlist names only the sizes the link plays.
  const only = (variant: string) => allowedVariant(link, cur, variant, false);
  return serveStoredFile(ctx, version.storageKey, file, { ...target, downloadAs: linkDownloadName(target, file), only }, { onTransfer });
}

/**
 * A link's caption files (issue 54): every track of the version the link shows, as its visitors
 * watch it; downloads (text and open captions) as the link's downloads allow, logged like the
 * others. A watermarked link's visitors read the captions but get no clean open-captions picture.
 */
async function serveLinkCaptions(ctx: APIContext, link: LinkRow, visit: { guestName: string | null }, id: number, file: string): Promise<Response> {
  const cur = await linkItem(link, id);
  if (!cur) return errorResponse(404, 'Not found');
  const { item, version } = cur;
  return serveCaptionFile(ctx, version.storageKey, file, {
    target: { id: item.id, mimeType: version.mimeType, filename: version.filename, title: item.title, isPublic: false },
    versionId: version.id,
    sees: 'all',
    downloads: link.download === 'none' ? 'none' : downloadsWait(link, cur) ? 'wait' : 'open',
    clean: !link.watermark,
    base: `/s/${ctx.params.token}/m/${id}/`,
    onDownload: (detail) => logAccess(ctx, link, 'download', { mediaId: id, guestName: visit.guestName ?? undefined, detail }),
  });
}
