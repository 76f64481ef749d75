// Queues share links' previews (issues 17 and 31): one job per link and version, run by the
// video worker (src/server/jobs/watermark.ts). A video's preview is cut from its clean review
// proxy, so it is queued once the version is ready; an image's at once. Which link needs one
// for which version is needsLinkPreview's rule.
import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { jobs, media, mediaVersions, shareLinkItems, shareLinks } from '../../db/schema.ts';
import { canRemux, type VideoProbe } from '../media/probe.ts';

type Executor = Pick<typeof db, 'select' | 'insert' | 'delete'>;

/** The job kind (src/server/jobs/queue.ts runs it; jobs/watermark.ts does the work). */
export const WATERMARK = 'watermark';

async function queue(tx: Executor, targets: { mediaId: number; versionId: number; linkId: number }[]): Promise<void> {
  for (const t of targets) {
    // A new cut of the preview replaces any earlier job for the same link and version.
    await tx.delete(jobs).where(and(eq(jobs.kind, WATERMARK), eq(jobs.linkId, t.linkId), eq(jobs.versionId, t.versionId)));
    await tx.insert(jobs).values({ kind: WATERMARK, mediaId: t.mediaId, versionId: t.versionId, linkId: t.linkId });
  }
}

/** A version can be previewed once there is something clean to cut it from. */
const previewable = sql`(${media.type} = 'image' OR ${mediaVersions.processingStatus} = 'ready')`;

/**
 * A video whose review proxy is a remux: the original's streams copied byte for byte, so
 * handing out the proxy hands out the original. (The plan is a pure function of the probe; a
 * version without one counts as remuxed, the safe side.)
 */
export function proxyIsRemux(probe: Record<string, unknown> | null): boolean {
  return !probe || canRemux(probe as unknown as VideoProbe);
}

/** What decides whether a link (or a client's own row) needs previews. */
export type PreviewNeeds = { watermark: boolean; download: string; downloadsAfterApproval: boolean };

/**
 * Whether a link may have to show `version` through a preview of its own rather than the
 * item's files: always when watermarked; on a clean link that withholds the original (or
 * holds it back until approval, issue 40), for every image (the item's full-size WebP is up
 * to 3,840 px) and for a video whose proxy is a remux. Whether it does so now is the viewer's
 * call (viewer.ts: a gated link uses it only while the gate is closed).
 */
export function needsLinkPreview(link: PreviewNeeds, type: 'image' | 'video', probe: Record<string, unknown> | null): boolean {
  if (link.watermark) return true;
  if (link.download === 'original' && !link.downloadsAfterApproval) return false;
  return type === 'image' || proxyIsRemux(probe);
}

const versionFacts = { mediaId: media.id, versionId: mediaVersions.id, type: media.type, probe: mediaVersions.probe };

/** Every item of a new (or edited) link whose current version can be previewed now and needs it. */
export async function enqueueLinkPreviews(tx: Executor, link: PreviewNeeds & { id: number }): Promise<void> {
  if (!link.watermark && link.download === 'original' && !link.downloadsAfterApproval) return;
  const rows = await tx
    .select(versionFacts)
    .from(shareLinkItems)
    .innerJoin(media, eq(media.id, shareLinkItems.mediaId))
    .innerJoin(mediaVersions, eq(mediaVersions.storageKey, media.storageKey))
    .where(and(eq(shareLinkItems.linkId, link.id), previewable));
  await queue(
    tx,
    rows.filter((r) => needsLinkPreview(link, r.type, r.probe)).map((r) => ({ mediaId: r.mediaId, versionId: r.versionId, linkId: link.id })),
  );
}

/**
 * A link's look changed and its previews took a new file key (issue 40): every earlier preview
 * job of the link, done or on the way, is dropped (a done one would name a file under the new
 * key that was never made) and the previews the link needs now are queued.
 */
export async function renewLinkPreviews(tx: Executor, link: PreviewNeeds & { id: number }): Promise<void> {
  await tx.delete(jobs).where(and(eq(jobs.kind, WATERMARK), eq(jobs.linkId, link.id)));
  await enqueueLinkPreviews(tx, link);
}

/**
 * Every version of `mediaIds` that can be previewed now and needs it, for a client's own row:
 * its watermark sees every version, its gate (client-gate.ts) the older ones too.
 */
export async function enqueueAllVersions(tx: Executor, link: PreviewNeeds & { id: number }, mediaIds: number[]): Promise<void> {
  if (!mediaIds.length) return;
  const rows = await tx
    .select({ mediaId: media.id, versionId: mediaVersions.id, type: media.type, probe: mediaVersions.probe })
    .from(mediaVersions)
    .innerJoin(media, eq(media.id, mediaVersions.mediaId))
    .where(and(inArray(media.id, mediaIds), previewable));
  await queue(
    tx,
    rows.filter((r) => needsLinkPreview(link, r.type, r.probe)).map((r) => ({ mediaId: r.mediaId, versionId: r.versionId, linkId: link.id })),
  );
}

/**
 * A version became ready (or a new image version arrived): every link holding its item that
 * needs a preview of it, and the watermark of every client it is assigned to.
 */
export async function enqueueWatermarksOfVersion(tx: Executor, mediaId: number, versionId: number): Promise<void> {
  const [version] = await tx
    .select({ type: media.type, probe: mediaVersions.probe })
    .from(mediaVersions)
    .innerJoin(media, eq(media.id, mediaVersions.mediaId))
    .where(eq(mediaVersions.id, versionId))
    .limit(1);
  if (!version) return;
  const links = await tx
    .select({ linkId: shareLinks.id, watermark: shareLinks.watermark, download: shareLinks.download, downloadsAfterApproval: shareLinks.downloadsAfterApproval })
    .from(shareLinks)
    .where(
      and(
        or(eq(shareLinks.watermark, true), sql`${shareLinks.download} <> 'original'`, eq(shareLinks.downloadsAfterApproval, true)),
        isNull(shareLinks.revokedAt),
        sql`(${shareLinks.id} IN (SELECT link_id FROM share_link_items WHERE media_id = ${mediaId})
          OR ${shareLinks.clientId} IN (SELECT client_id FROM media WHERE id = ${mediaId} UNION SELECT client_id FROM media_clients WHERE media_id = ${mediaId}))`,
      ),
    );
  await queue(
    tx,
    links.filter((l) => needsLinkPreview(l, version.type, version.probe)).map((l) => ({ mediaId, versionId, linkId: l.linkId })),
  );
}

export interface PreviewState {
  /** The finished job's id: a ?v= on the preview's URL. */
  jobId: number | null;
  pending: boolean;
}

/** The preview state of each of `versionIds` for one link. */
export async function previewStates(linkId: number, versionIds: number[]): Promise<Map<number, PreviewState>> {
  const out = new Map<number, PreviewState>();
  if (!versionIds.length) return out;
  const rows = await db
    .select({ id: jobs.id, versionId: jobs.versionId, status: jobs.status })
    .from(jobs)
    .where(and(eq(jobs.kind, WATERMARK), eq(jobs.linkId, linkId), inArray(jobs.versionId, versionIds)))
    .orderBy(desc(jobs.id));
  for (const r of rows) {
    if (r.versionId == null || out.has(r.versionId)) continue;
    out.set(r.versionId, { jobId: r.status === 'done' ? r.id : null, pending: r.status === 'queued' || r.status === 'running' });
  }
  return out;
}
