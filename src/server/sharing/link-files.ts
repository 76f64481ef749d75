// Which of a version's files a share link lets its visitor fetch (issues 17, 31 and 40), and
// which a client whose downloads wait for approval may fetch while the gate is closed (that
// client's own row, client-gate.ts, is a "No downloads" link). Anything not listed here is
// refused, so a new kind of file is private until allowed.
//
// A closed gate (a link that offers no original, or one whose downloads wait for an approval
// not given yet) plays the ladder's encodes up to 1080p only: a 2160p proxy is a master in all
// but name. A remuxed video (its proxy is the original's streams copied) and every image (the
// full-size WebP is up to 3,840 px) are shown through the viewer's own preview instead
// (needsLinkPreview: a re-encode of at most 720p, an image of at most 2,048 px).
import type { media, mediaVersions } from '../../db/schema.ts';
import { closedRenditions, progressive } from '../media/playback.ts';
import { linkPreviewVariant, playlistVariant, VARIANTS } from '../storage/paths.ts';
import type { LinkRow } from './links.ts';
import { needsLinkPreview } from './watermark-jobs.ts';

type Version = typeof mediaVersions.$inferSelect;
/** An item's version as a link (or a gated client) sees it. */
export type Current = { item: Pick<typeof media.$inferSelect, 'type'>; version: Version };

export const variantOf = (url: string | null) => (url ? url.split('?')[0]!.split('/').pop()! : null);

/**
 * Whether the link's downloads of this item are still closed (issue 30): the link is set to
 * "downloads wait for approval" and the item's current version is not approved.
 */
export const downloadsWait = (link: LinkRow, { version }: Current) => link.downloadsAfterApproval && version.approvalStatus !== 'approved';

/** Whether the link holds back the item's full quality now: no original offered, or not yet (issue 40). */
export const gateClosed = (link: LinkRow, cur: Current) => link.watermark || link.download !== 'original' || downloadsWait(link, cur);

/** Whether the link shows this version through a preview of its own (see needsLinkPreview). */
export const viaPreview = (link: LinkRow, cur: Current) => needsLinkPreview(link, cur.item.type, cur.version.probe) && gateClosed(link, cur);

/** The proxies the link plays of a ready video it does not show through its own preview. */
export function linkRenditions(link: LinkRow, cur: Current) {
  const all = cur.version.renditions ?? [];
  return gateClosed(link, cur) ? closedRenditions(all) : all;
}

/**
 * Whether the link lets its visitor fetch `variant` of this version, and whether as a download.
 */
export function allowedVariant(link: LinkRow, cur: Current, variant: string, download: boolean): boolean {
  const { item, version } = cur;
  const original = variantOf(version.url);
  const preview = linkPreviewVariant(link, item.type);
  if (link.watermark) return variant === preview && (!download || link.download === 'preview');
  if (variant === original) return link.download === 'original';
  if (download) return link.download !== 'none' && variant === previewDownloadVariant(link, cur);
  const ownPreview = viaPreview(link, cur);
  const viewable = [variantOf(version.posterUrl), variantOf(version.thumbnailUrl), variantOf(version.thumbnailWebpUrl)];
  if (ownPreview) viewable.push(preview);
  else viewable.push(variantOf(version.webpUrl));
  if (item.type === 'video' && version.processingStatus === 'ready') {
    if (!ownPreview) {
      const renditions = linkRenditions(link, cur);
      viewable.push(...renditions.map((r) => r.variant));
      // Playlists follow the proxies they describe (issue 33); the master is served naming only
      // these (delivery.ts, Target.only).
      const streamed = renditions.filter((r) => r.hls);
      viewable.push(...streamed.map((r) => playlistVariant(r.variant)));
      if (streamed.length) viewable.push(VARIANTS.master);
    }
    viewable.push(VARIANTS.sprite, VARIANTS.spriteMap);
  }
  return viewable.includes(variant);
}

/**
 * What "preview" downloads offer on a clean link: the link's own preview where it has one (a
 * re-encode of a remuxed video, an image at most 2,048 px), else the best review proxy (a real
 * re-encode, at most 1080p), or the full-size image on a link that offers originals anyway.
 */
export function previewDownloadVariant(link: LinkRow, cur: Current): string | null {
  const { item, version } = cur;
  if (viaPreview(link, cur)) return linkPreviewVariant(link, item.type);
  if (item.type === 'image') return variantOf(version.webpUrl);
  return version.processingStatus === 'ready' ? (progressive(linkRenditions(link, cur))?.variant ?? null) : null;
}
