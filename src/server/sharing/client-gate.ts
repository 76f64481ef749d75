// A client whose downloads wait for approval (issue 30) sees, while an item's gate is closed,
// what a "No downloads" share link shows (issue 40): the ladder's encodes up to 1080p, and
// images and remuxed videos through clean previews of its own (at most 2,048 px / 720p), never
// the full-size WebP, a 2160p proxy or a remux's copy of the original's streams. As for a
// client's watermark (client-watermark.ts), the client gets a share link row of its own for
// this: client_id set, no watermark, download "none", no token ever given out; its previews are
// made, named (lp-{file key}) and queued exactly as a link's (watermark-jobs.ts), for every
// version of everything assigned, so they are ready when a new version closes the gate again.
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clients, mediaVersions, shareLinks } from '../../db/schema.ts';
import { generateSessionToken, sessionIdFromToken } from '../auth/tokens.ts';
import { linkPreviewVariant, mediaUrl, newFileKey } from '../storage/paths.ts';
import { progressive } from '../media/playback.ts';
import { approvedItems, clientDownloadsGated } from '../review/download-gate.ts';
import type { LinkRow } from './links.ts';
import { assignedMediaIds, storageKeyOf, type FileFields } from './client-watermark.ts';
import { enqueueAllVersions, previewStates, type PreviewState } from './watermark-jobs.ts';
import { linkRenditions, variantOf, viaPreview, type Current } from './link-files.ts';

type Executor = Pick<typeof db, 'select' | 'insert' | 'update' | 'delete'>;

/** The client's clean row while its downloads wait for approval. */
export async function clientGateLink(clientId: number, tx: Pick<typeof db, 'select'> = db): Promise<LinkRow | null> {
  const [row] = await tx
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.clientId, clientId), eq(shareLinks.watermark, false), isNull(shareLinks.revokedAt)))
    .orderBy(desc(shareLinks.id))
    .limit(1);
  return row ?? null;
}

/**
 * Follows the client's switch: on, the row is made (if missing) and the previews of everything
 * assigned are queued; off, it is revoked (its previews are no longer served to anyone).
 */
export async function setClientGate(tx: Executor, clientId: number, on: boolean, staffUserId: string | null): Promise<void> {
  const current = await clientGateLink(clientId, tx);
  if (!on) {
    if (current) await tx.update(shareLinks).set({ revokedAt: new Date() }).where(eq(shareLinks.id, current.id));
    return;
  }
  if (current) return;
  const [client] = await tx.select({ name: clients.name }).from(clients).where(eq(clients.id, clientId)).limit(1);
  if (!client) return;
  const [link] = await tx
    .insert(shareLinks)
    .values({
      // A token nobody holds: the row is never opened through /s/.
      tokenHash: sessionIdFromToken(generateSessionToken()),
      name: client.name,
      watermark: false,
      download: 'none',
      clientId,
      createdBy: staffUserId,
      fileKey: newFileKey(),
    })
    .returning();
  await enqueueAllVersions(tx, link!, await assignedMediaIds(tx, clientId));
}

/**
 * Clients switched on before their row existed (issue 30's switch predates it): given one,
 * with its previews queued. Run when a worker starts; the number of clients it made rows for.
 */
export async function ensureClientGates(): Promise<number> {
  return db.transaction(async (tx) => {
    const missing = await tx
      .select({ id: clients.id })
      .from(clients)
      .where(
        and(
          eq(clients.downloadsAfterApproval, true),
          sql`NOT EXISTS (SELECT 1 FROM share_links l WHERE l.client_id = ${clients.id} AND l.watermark = 0 AND l.revoked_at IS NULL)`,
        ),
      );
    for (const c of missing) await setClientGate(tx, c.id, true, null);
    return missing.length;
  });
}

/**
 * Items or versions as a gated client (without a watermark) sees them: those of items whose
 * gate is closed as a "No downloads" link shows them (see closedRow), the rest unchanged.
 */
export async function closedForClient<T extends FileFields>(
  clientId: number,
  rows: T[],
  typeOf: (row: T) => 'image' | 'video',
  mediaIdOf: (row: T) => number,
): Promise<T[]> {
  if (!rows.length || !(await clientDownloadsGated(clientId))) return rows;
  const open = await approvedItems(rows.map(mediaIdOf));
  const closed = rows.filter((r) => !open.has(mediaIdOf(r)));
  if (!closed.length) return rows;
  const gate = await clientGateLink(clientId);
  const keys = closed.map((r) => storageKeyOf(r.url)).filter((k): k is string => !!k);
  const versions = keys.length ? await db.select().from(mediaVersions).where(inArray(mediaVersions.storageKey, keys)) : [];
  const states = gate ? await previewStates(gate.id, versions.map((v) => v.id)) : new Map<number, PreviewState>();
  return rows.map((r) => {
    if (open.has(mediaIdOf(r))) return r;
    const version = versions.find((v) => v.storageKey === storageKeyOf(r.url));
    return closedRow(r, version && { item: { type: typeOf(r) }, version }, gate, version && states.get(version.id));
  });
}

/**
 * One row behind a closed gate: an image or a remuxed video as the gate's own preview (pending
 * until its job is done), a transcoded video with its encodes up to 1080p and a stream of those.
 * Poster, thumbnails and sprite stay (small re-encoded stills, as on a clean link).
 */
function closedRow<T extends FileFields>(row: T, cur: Current | undefined, gate: LinkRow | null, state: PreviewState | undefined): T {
  const key = storageKeyOf(row.url);
  // No row yet (ensureClientGates has not run): nothing plays rather than something too good.
  if (!key || !cur || !gate) return { ...row, playbackUrl: null, renditions: [], streamUrl: null, ...('webpUrl' in row ? { webpUrl: null } : {}) };
  if (viaPreview(gate, cur)) {
    const file = mediaUrl(key, linkPreviewVariant(gate, cur.item.type));
    const ready = state?.jobId ? `${file}?v=${state.jobId}` : null;
    if (cur.item.type === 'image') return { ...row, url: ready ?? file, ...('webpUrl' in row ? { webpUrl: ready } : {}) };
    return { ...row, url: ready ?? file, playbackUrl: ready, renditions: [], streamUrl: null, processingStatus: ready ? 'ready' : 'processing', processingProgress: ready ? 100 : 0 };
  }
  const shown = new Set<string | null>(linkRenditions(gate, cur).map((r) => r.variant));
  const renditions = row.renditions.filter((r) => shown.has(variantOf(r.url)));
  const streamed = linkRenditions(gate, cur).some((r) => r.hls);
  // Not ready yet: playbackUrl may be the original, which withClientDownloads then withholds.
  return { ...row, renditions, playbackUrl: renditions.length ? progressive(renditions)!.url : row.playbackUrl, streamUrl: streamed ? row.streamUrl : null };
}
