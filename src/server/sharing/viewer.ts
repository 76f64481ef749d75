// What a share link's visitor sees and may fetch (issue 17). Files are served under the link's
// own address, /s/{token}/m/{mediaId}/{variant}, and only the ones the link allows: a
// watermarked link reaches its preview and nothing else (no clean proxy, poster or original);
// the original needs a link that offers original downloads.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { APIContext } from 'astro';
import { db } from '../../db/index.ts';
import { media, mediaVersions, shareComments, shareLinkItems, shareLinks } from '../../db/schema.ts';
import { errorResponse } from '../http.ts';
import { serveStoredFile } from '../media/delivery.ts';
import { playbackFields } from '../media/playback.ts';
import { VARIANT_RE, VARIANTS, watermarkVariant } from '../storage/paths.ts';
import type { ShareComment, ShareItem, ShareView } from '../../shared/schemas/share.ts';
import { logAccess, requireVisit, type VisitRow } from './access.ts';
import type { LinkRow } from './links.ts';
import { previewStates } from './watermark-jobs.ts';
import { probeFacts } from '../review/versions.ts';

type Current = { item: typeof media.$inferSelect; version: typeof mediaVersions.$inferSelect };

/** The link's items, in the order staff chose, each with its current version. */
async function linkItems(link: LinkRow, onlyMediaId?: number): Promise<Current[]> {
  return db
    .select({ item: media, version: mediaVersions })
    .from(shareLinkItems)
    .innerJoin(media, eq(media.id, shareLinkItems.mediaId))
    .innerJoin(mediaVersions, eq(mediaVersions.storageKey, media.storageKey))
    .where(and(eq(shareLinkItems.linkId, link.id), onlyMediaId ? eq(media.id, onlyMediaId) : undefined))
    .orderBy(asc(shareLinkItems.position));
}

/** One item of the link (404 when the link does not hold it). */
export async function linkItem(link: LinkRow, mediaId: number): Promise<Current | null> {
  const [row] = await linkItems(link, mediaId);
  return row ?? null;
}

const variantOf = (url: string | null) => (url ? url.split('?')[0]!.split('/').pop()! : null);

/**
 * Whether the link lets its visitor fetch `variant` of this version, and whether as a download.
 * Anything not listed here is refused, so a new kind of file is private until allowed.
 */
export function allowedVariant(link: LinkRow, cur: Current, variant: string, download: boolean): boolean {
  const { item, version } = cur;
  const original = variantOf(version.url);
  if (link.watermark) {
    return variant === watermarkVariant(link.id, item.type) && (!download || link.download === 'preview');
  }
  if (variant === original) return link.download === 'original';
  if (download) return link.download !== 'none' && variant === previewDownloadVariant(cur);
  const viewable = [variantOf(version.posterUrl), variantOf(version.thumbnailUrl), variantOf(version.thumbnailWebpUrl), variantOf(version.webpUrl)];
  if (item.type === 'video' && version.processingStatus === 'ready') {
    viewable.push(...(version.renditions ?? []).map((r) => r.variant), VARIANTS.sprite, VARIANTS.spriteMap);
  }
  return viewable.includes(variant);
}

/** What "preview" downloads offer on a clean link: the best review proxy, or the full-size image. */
function previewDownloadVariant({ item, version }: Current): string | null {
  if (item.type === 'image') return variantOf(version.webpUrl);
  return version.processingStatus === 'ready' ? (version.renditions?.[0]?.variant ?? null) : null;
}

export async function shareView(link: LinkRow, visit: VisitRow, token: string): Promise<ShareView> {
  const rows = await linkItems(link);
  const previews = link.watermark ? await previewStates(link.id, rows.map((r) => r.version.id)) : new Map();
  const items: ShareItem[] = rows.map((cur) => {
    const { item, version } = cur;
    const base = `/s/${token}/m/${item.id}/`;
    const at = (variant: string | null, v?: number | string | null) => (variant ? `${base}${variant}${v ? `?v=${v}` : ''}` : null);
    const approval = {
      status: version.approvalStatus,
      by: version.approvalStatus === 'in_review' ? null : version.approvalGuest ?? 'The client',
      at: version.approvalStatus === 'in_review' ? null : (version.approvalAt?.toISOString() ?? null),
      note: version.approvalNote,
      locked: version.approvalLocked,
    };
    const shared = {
      id: item.id,
      title: item.title,
      type: item.type,
      version: version.number,
      durationSeconds: version.durationSeconds,
      frameRate: probeFacts(version.probe).frameRate,
      approval,
    };
    if (link.watermark) {
      const state = previews.get(version.id);
      const url = state?.jobId ? at(watermarkVariant(link.id, item.type), state.jobId) : null;
      return {
        ...shared,
        processingStatus: item.type === 'video' ? (url ? 'ready' : 'processing') : null,
        processingProgress: url ? 100 : 0,
        processingError: null,
        playbackUrl: item.type === 'video' ? url : null,
        renditions: [],
        spriteUrl: null,
        posterUrl: null,
        thumbnailUrl: item.type === 'image' ? url : null,
        imageUrl: item.type === 'image' ? url : null,
        downloadUrl: url && link.download === 'preview' ? `${url}&download=1` : null,
        previewPending: !url,
      };
    }
    const playback = playbackFields({ ...version, type: item.type });
    // Playback URLs point into the item's folder under /media: re-address them under the link.
    const relink = (url: string | null) => (url ? `${base}${url.slice(url.lastIndexOf('/') + 1)}` : null);
    const originalAllowed = link.download === 'original';
    const playbackUrl = playback.renditions[0] ? relink(playback.renditions[0].url) : originalAllowed ? relink(playback.playbackUrl) : null;
    const previewVariant = previewDownloadVariant(cur);
    return {
      ...shared,
      ...playback,
      playbackUrl,
      renditions: playback.renditions.map((r) => ({ ...r, url: relink(r.url)! })),
      spriteUrl: relink(playback.spriteUrl),
      posterUrl: relink(version.posterUrl),
      thumbnailUrl: relink(version.thumbnailWebpUrl ?? version.thumbnailUrl),
      imageUrl: item.type === 'image' ? relink(version.webpUrl) ?? (originalAllowed ? relink(version.url) : null) : null,
      downloadUrl:
        link.download === 'original' ? `${relink(version.url)}?download=1` : link.download === 'preview' && previewVariant ? `${base}${previewVariant}?download=1` : null,
      previewPending: false,
    };
  });
  return {
    name: link.name,
    guestName: visit.guestName,
    allowComment: link.allowComment,
    allowApprove: link.allowApprove,
    download: link.download,
    watermark: link.watermark,
    expiresAt: link.expiresAt?.toISOString() ?? null,
    items,
    comments: await linkComments(link.id, rows.map((r) => r.item.id)),
  };
}

/** Guest comments on `mediaIds`: one link's (for its visitors), or every link's with its name (staff). */
export async function linkComments(linkId: number | null, mediaIds: number[]): Promise<ShareComment[]> {
  if (!mediaIds.length) return [];
  const rows = await db
    .select({ c: shareComments, number: mediaVersions.number, linkName: shareLinks.name })
    .from(shareComments)
    .innerJoin(shareLinks, eq(shareLinks.id, shareComments.linkId))
    .leftJoin(mediaVersions, eq(mediaVersions.id, shareComments.versionId))
    .where(and(inArray(shareComments.mediaId, mediaIds), linkId != null ? eq(shareComments.linkId, linkId) : undefined))
    .orderBy(asc(shareComments.createdAt), asc(shareComments.id));
  return rows.map(({ c, number, linkName }) => ({
    ...(linkId == null ? { linkName } : {}),
    id: c.id,
    mediaId: c.mediaId,
    versionNumber: number,
    guestName: c.guestName,
    kind: c.kind,
    rating: c.rating,
    timestampSeconds: c.timestampSeconds,
    text: c.text,
    createdAt: c.createdAt.toISOString(),
  }));
}

/** GET/HEAD /s/{token}/m/{mediaId}/{variant}: one file, if the link allows it. */
export async function serveLinkFile(ctx: APIContext): Promise<Response> {
  const { token, mediaId, file } = ctx.params;
  const { link, visit } = await requireVisit(ctx, token);
  const id = /^[1-9]\d{0,15}$/.test(mediaId ?? '') ? Number(mediaId) : null;
  if (!id || !file || !VARIANT_RE.test(file)) return errorResponse(404, 'Not found');
  const cur = await linkItem(link, id);
  const download = ctx.url.searchParams.get('download') === '1';
  if (!cur || !allowedVariant(link, cur, file, download)) return errorResponse(404, 'Not found');
  // One log row per download, not per range request of a player.
  if (download && ctx.request.method === 'GET' && !ctx.request.headers.get('range')) {
    await logAccess(ctx, link, 'download', { mediaId: id, guestName: visit.guestName, detail: file.startsWith('original.') ? 'original' : 'preview' });
  }
  const { item, version } = cur;
  return serveStoredFile(ctx, version.storageKey, file, { id: item.id, mimeType: version.mimeType, filename: version.filename, title: item.title, isPublic: false });
}
