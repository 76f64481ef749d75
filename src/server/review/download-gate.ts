// Downloads that wait for approval (issue 30). A client (clients.downloads_after_approval) or a
// share link (share_links.downloads_after_approval) may be set so that an item's files can be
// downloaded only once its CURRENT version is approved; until then every download request
// answers 403 with DOWNLOADS_AFTER_APPROVAL_MESSAGE and the download fields of the API say why.
// Staff are never gated. What counts as a download is decided by the callers:
//   - clients (media/delivery.ts): every request for an original (original.*, of any version,
//     with or without ?download=1) and any file asked for with ?download=1; the review proxies up
//     to 1080p, posters, thumbnails and sprite still play without it (watching is what the review
//     is for);
//   - links (sharing/viewer.ts): every file the link lets its visitor download, asked for with
//     ?download=1, and the original by any address.
// While a gate is closed the viewer also plays less than full quality (issue 40): what a "No
// downloads" link shows (sharing/link-files.ts; a client's through its own row, client-gate.ts).
import { and, eq, inArray } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clients, media, mediaVersions } from '../../db/schema.ts';
import { DOWNLOADS_AFTER_APPROVAL_MESSAGE, downloadHref, type DownloadFields } from '../../shared/schemas/review.ts';

export { DOWNLOADS_AFTER_APPROVAL_MESSAGE };

/** Whether the client is set to "downloads wait for approval". */
export async function clientDownloadsGated(clientId: number): Promise<boolean> {
  const [row] = await db.select({ on: clients.downloadsAfterApproval }).from(clients).where(eq(clients.id, clientId)).limit(1);
  return !!row?.on;
}

/** Of `mediaIds`, those whose current version is approved. */
export async function approvedItems(mediaIds: number[]): Promise<Set<number>> {
  if (!mediaIds.length) return new Set();
  const rows = await db
    .select({ id: media.id })
    .from(media)
    .innerJoin(mediaVersions, eq(mediaVersions.storageKey, media.storageKey))
    .where(and(inArray(media.id, [...new Set(mediaIds)]), eq(mediaVersions.approvalStatus, 'approved')));
  return new Set(rows.map((r) => r.id));
}

/** Whether the client's downloads of this item are still closed (gated client, current version not approved). */
export async function clientDownloadsClosed(clientId: number, mediaId: number): Promise<boolean> {
  if (!(await clientDownloadsGated(clientId))) return false;
  return !(await approvedItems([mediaId])).has(mediaId);
}

/**
 * The download fields of items or versions as a client sees them (after forClient, so a
 * watermarked client's `url` is already its preview): the url as a download, or null with the
 * reason while the item waits for approval. A video that would play its original while no proxy
 * exists plays nothing instead (the original is a download).
 */
export async function withClientDownloads<T extends { url: string; playbackUrl: string | null }>(
  clientId: number,
  rows: T[],
  mediaIdOf: (row: T) => number,
): Promise<(T & DownloadFields)[]> {
  const gated = rows.length ? await clientDownloadsGated(clientId) : false;
  const open = gated ? await approvedItems(rows.map(mediaIdOf)) : null;
  return rows.map((r) => {
    if (!open || open.has(mediaIdOf(r))) return { ...r, downloadUrl: downloadHref(r.url), downloadBlockedReason: null };
    const playsOriginal = r.playbackUrl !== null && r.playbackUrl.split('?')[0]!.split('/').pop()!.startsWith('original.');
    return { ...r, playbackUrl: playsOriginal ? null : r.playbackUrl, downloadUrl: null, downloadBlockedReason: DOWNLOADS_AFTER_APPROVAL_MESSAGE };
  });
}
