// Downloads that follow the package (issue 42): each image's size limit is its set's tier, else
// the gallery's (off, web 1,024 or 2,048 px, high-res, original; each includes the smaller
// ones); the PIN is asked before any download; high-res and original downloads count toward
// the gallery's cap per viewer (a client's logins together, a link's visitors together), where
// downloading an image again does not count twice. Every download is a row of the gallery's log
// (one per image, also inside a ZIP), and a link's also goes to its access log.
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { galleryDownloads } from '../../db/schema.ts';
import { HttpError } from '../http.ts';
import { CAPPED_SIZES, PIN_NEEDED, tierSizes, type DownloadTier } from '../../shared/schemas/proofing.ts';
import { addressOf, logLinkAccess, viewerName, viewerOrigin, type Viewing } from './access.ts';
import { auditIn } from '../audit/record.ts';
import { pinOk } from './pin.ts';

export type Size = Exclude<DownloadTier, 'off'>;

export const SIZE_NOT_OFFERED = 'This gallery does not offer downloads of that size.';

/** The tier an image follows: its set's, else the gallery's. */
export const imageTier = (galleryTier: DownloadTier, setTier: DownloadTier | null | undefined): DownloadTier => setTier ?? galleryTier;

/** Whose downloads count together: the client (all its logins), or the link (all its visitors). */
const scope = (v: Viewing) =>
  and(eq(galleryDownloads.galleryId, v.gallery.id), v.kind === 'client' ? eq(galleryDownloads.clientId, v.client.clientId) : eq(galleryDownloads.linkId, v.link.id));

/** The images this viewer already downloaded at high-res or original size (they may again, free). */
export async function cappedDownloads(v: Viewing, r: Pick<typeof db, 'selectDistinct'> = db): Promise<Set<number>> {
  const rows = await r
    .selectDistinct({ id: galleryDownloads.imageId })
    .from(galleryDownloads)
    .where(and(scope(v), inArray(galleryDownloads.tier, [...CAPPED_SIZES]), isNotNull(galleryDownloads.imageId)));
  return new Set(rows.map((r) => r.id!));
}

/**
 * Whether this viewer already started a download of this image at this size on its own (not in
 * a ZIP): a range of it from a later byte is then a resume, not a new download. The viewer is
 * the client login, or the link (its visitors are not told apart in the log).
 */
export async function downloadStarted(v: Viewing, imageId: number, size: Size): Promise<boolean> {
  const login = v.kind === 'client' ? eq(galleryDownloads.clientUserId, v.client.id) : undefined;
  const [row] = await db
    .select({ id: galleryDownloads.id })
    .from(galleryDownloads)
    .where(and(scope(v), login, eq(galleryDownloads.tier, size), eq(galleryDownloads.imageId, imageId), isNull(galleryDownloads.zipId)))
    .limit(1);
  return !!row;
}

/** The sizes one image offers this viewer now, largest first (capped sizes go once the cap is used up). */
export function sizesFor(v: Viewing, tier: DownloadTier, imageId: number, capped: Set<number>): Size[] {
  const cap = v.gallery.highResCap;
  const full = cap != null && capped.size >= cap && !capped.has(imageId);
  return tierSizes(tier).filter((s) => !(full && CAPPED_SIZES.includes(s)));
}

export interface DownloadItem {
  imageId: number;
  mediaId: number;
  tier: DownloadTier;
  fileName: string;
}

export const capMessage = (cap: number, left: number) =>
  `This gallery allows ${cap.toLocaleString('en-GB')} high-resolution download${cap === 1 ? '' : 's'} per viewer; you have ${left.toLocaleString('en-GB')} left. Choose a web size, or ask the studio.`;

/**
 * Checks that every item may be downloaded at `size` (403 with the reason: not offered, PIN
 * needed, cap reached) and, in the same transaction, logs them, so two downloads at once cannot
 * both take the last high-res place.
 */
export async function reserveDownloads(v: Viewing, items: DownloadItem[], size: Size, zipId: string | null, checkOnly = false): Promise<void> {
  if (!items.length || items.some((i) => !tierSizes(i.tier).includes(size))) throw new HttpError(403, SIZE_NOT_OFFERED);
  if (!(await pinOk(v))) throw new HttpError(403, PIN_NEEDED);
  const who = viewerName(v);
  const ip = addressOf(v);
  await db.transaction(async (tx) => {
    const cap = v.gallery.highResCap;
    if (cap != null && CAPPED_SIZES.includes(size)) {
      const capped = await cappedDownloads(v, tx);
      const fresh = new Set(items.map((i) => i.imageId).filter((id) => !capped.has(id)));
      if (capped.size + fresh.size > cap) throw new HttpError(403, capMessage(cap, Math.max(0, cap - capped.size)));
    }
    // `?check=1`: the viewer asks before starting a download whether it would be refused (a
    // refused download would otherwise replace the page with an error).
    if (checkOnly) return;
    for (let i = 0; i < items.length; i += 500) {
      await tx.insert(galleryDownloads).values(
        items.slice(i, i + 500).map((item) => ({
          galleryId: v.gallery.id,
          imageId: item.imageId,
          mediaId: item.mediaId,
          clientId: v.kind === 'client' ? v.client.clientId : null,
          clientUserId: v.kind === 'client' ? v.client.id : null,
          linkId: v.kind === 'link' ? v.link.id : null,
          who,
          tier: size,
          zipId,
          fileName: item.fileName,
          ip,
        })),
      );
    }
    // High-res and original files are what the audit log keeps (issue 56): one row per download
    // or ZIP, in the transaction that logs it.
    if (CAPPED_SIZES.includes(size)) {
      await auditIn(tx, viewerOrigin(v), {
        kind: 'download.gallery',
        object: { type: 'gallery', id: v.gallery.id, name: v.gallery.title },
        detail: { size, files: items.length, ...(zipId ? { zip: true } : { file: items[0]!.fileName }) },
      });
    }
  });
  if (checkOnly) return;
  const label = size === 'original' ? 'original' : size === 'highres' ? `high-res ${v.gallery.highResEdge} px` : `web ${size === 'web1024' ? '1,024' : '2,048'} px`;
  if (zipId) await logLinkAccess(v, 'download', { detail: `ZIP of ${items.length} image${items.length === 1 ? '' : 's'}, ${label}` });
  else await logLinkAccess(v, 'download', { mediaId: items[0]!.mediaId, detail: `${items[0]!.fileName}, ${label}` });
}

/** How many capped downloads the viewer has used (for the "12 of 20 left" line). */
export async function capUsed(v: Viewing): Promise<number> {
  return v.gallery.highResCap == null ? 0 : (await cappedDownloads(v)).size;
}

/** The gallery's download log for staff, newest first. */
export async function galleryDownloadLog(galleryId: number, limit = 500) {
  const rows = await db
    .select({
      d: galleryDownloads,
      via: sql<string>`CASE WHEN ${galleryDownloads.linkId} IS NOT NULL THEN 'Link “' || (SELECT name FROM share_links WHERE id = ${galleryDownloads.linkId}) || '”' ELSE 'Client ' || coalesce((SELECT name FROM clients WHERE id = ${galleryDownloads.clientId}), '') END`,
    })
    .from(galleryDownloads)
    .where(eq(galleryDownloads.galleryId, galleryId))
    .orderBy(sql`${galleryDownloads.id} DESC`)
    .limit(limit);
  return rows.map(({ d, via }) => ({ id: d.id, at: d.createdAt.toISOString(), who: d.who, via, fileName: d.fileName, tier: d.tier, zip: d.zipId != null }));
}
