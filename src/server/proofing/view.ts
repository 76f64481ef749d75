// What a gallery's viewer gets (issue 42): the gallery in its order with each image's facts,
// this viewer's hearts, stars and picks, the selection lists with their counts and state, what
// each image may be downloaded as, and the notes on its stills. One answer for 2,000 images
// (budget: < 100 ms p95 on the server, bench/proofing-gallery.mjs).
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { gallerySets, proofMarks, selectionItems, selectionLists, selections } from '../../db/schema.ts';
import { getBrandingSettings } from '../settings/read.ts';
import type { ViewerGallery, ViewerImage, ViewerList } from '../../shared/schemas/proofing.ts';
import { markedVariant, recallGuestName, viewerOf, type Viewing } from './access.ts';
import { previewStates } from '../sharing/watermark-jobs.ts';
import type { DownloadTier } from '../../shared/schemas/proofing.ts';
import { viewerImageRows } from './galleries.ts';
import { sortImages } from './order.ts';
import { cappedDownloads, imageTier, sizesFor } from './downloads.ts';
import { pinOk } from './pin.ts';
import { stillNotes } from './comments.ts';

/** On a watermarked link the one size on offer is the marked copy, as "web size 2,048 px". */
export function markedSizes(marked: boolean, sizes: Exclude<DownloadTier, 'off'>[]): Exclude<DownloadTier, 'off'>[] {
  return marked ? sizes.filter((s) => s === 'web2048') : sizes;
}

/** The lists of a gallery with this viewer's count and state of each. */
export async function viewerLists(galleryId: number, viewerId: number | null): Promise<ViewerList[]> {
  const lists = await db.select().from(selectionLists).where(eq(selectionLists.galleryId, galleryId)).orderBy(asc(selectionLists.position), asc(selectionLists.id));
  const mine = viewerId
    ? await db
        .select({ s: selections, n: sql<number>`(SELECT count(*) FROM selection_items si WHERE si.selection_id = ${selections.id})`.mapWith(Number) })
        .from(selections)
        .where(and(eq(selections.viewerId, viewerId), lists.length ? inArray(selections.listId, lists.map((l) => l.id)) : sql`0`))
    : [];
  return lists.map((l) => {
    const sel = mine.find((m) => m.s.listId === l.id);
    return {
      id: l.id,
      name: l.name,
      minCount: l.minCount,
      maxCount: l.maxCount,
      count: sel?.n ?? 0,
      submittedAt: sel?.s.submittedAt?.toISOString() ?? null,
      reopenedAt: sel?.s.reopenedAt?.toISOString() ?? null,
      reopenNote: sel?.s.reopenNote ?? null,
    };
  });
}

export async function viewerGallery(v: Viewing): Promise<ViewerGallery> {
  const g = v.gallery;
  await recallGuestName(v); // the page's viewing does not come through linkViewing
  const viewer = await viewerOf(v, false);
  const [rows, sets, lists, marks, picks, capped, pin, studio, notes] = await Promise.all([
    viewerImageRows(g.id),
    db.select().from(gallerySets).where(eq(gallerySets.galleryId, g.id)).orderBy(asc(gallerySets.position), asc(gallerySets.id)),
    viewerLists(g.id, viewer?.id ?? null),
    viewer ? db.select().from(proofMarks).where(eq(proofMarks.viewerId, viewer.id)) : [],
    viewer
      ? db
          .select({ imageId: selectionItems.imageId, listId: selections.listId })
          .from(selectionItems)
          .innerJoin(selections, eq(selections.id, selectionItems.selectionId))
          .where(eq(selections.viewerId, viewer.id))
      : [],
    cappedDownloads(v),
    pinOk(v),
    getBrandingSettings(),
    stillNotes(v),
  ]);
  // A watermarked link shows its marked copies only: an image is ready once its copy is made,
  // and gives only that copy (2,048 px at most), where the package allows web size 2,048 or more.
  const marked = markedVariant(v) != null;
  const previews = marked && v.kind === 'link' ? await previewStates(v.link.id, rows.map((r) => r.versionId)) : null;
  const markOf = new Map(marks.map((m) => [m.imageId, m]));
  const picksOf = new Map<number, number[]>();
  for (const p of picks) picksOf.set(p.imageId, [...(picksOf.get(p.imageId) ?? []), p.listId]);
  const tierOfSet = new Map(sets.map((s) => [s.id, s.downloadTier]));
  const images: ViewerImage[] = sortImages(rows, g.sortOrder).map((r) => {
    const mark = markOf.get(r.id);
    return {
      id: r.id,
      name: r.filename,
      width: r.width,
      height: r.height,
      setId: r.setId,
      capturedAt: r.capturedAt?.toISOString() ?? null,
      camera: r.camera,
      lens: r.lens,
      ready: previews ? previews.get(r.versionId)?.jobId != null : r.ready,
      heart: mark?.heart ?? false,
      stars: mark?.stars ?? 0,
      picks: picksOf.get(r.id) ?? [],
      sizes: markedSizes(marked, sizesFor(v, imageTier(g.downloadTier, r.setId != null ? tierOfSet.get(r.setId) : null), r.id, capped)),
    };
  });
  const cover = g.coverMediaId != null ? rows.find((r) => r.mediaId === g.coverMediaId) : undefined;
  const name = v.kind === 'client' ? v.client.name : v.visit.guestName;
  return {
    id: g.id,
    title: g.title,
    studio: studio.companyName,
    coverImageId: cover?.id ?? images[0]?.id ?? null,
    expiresOn: g.expiresOn,
    expiresAt: g.expiresAt?.toISOString() ?? null,
    sets: sets.map((s) => ({ id: s.id, name: s.name, downloadTier: s.downloadTier })),
    lists,
    images,
    notes,
    fileBase: v.fileBase,
    zipUrl: v.zipUrl,
    highResEdge: g.highResEdge,
    downloads: { pinRequired: !!g.downloadPin, pinOk: pin, highResCap: g.highResCap, highResUsed: capped.size },
    viewer: { name, needsName: v.kind === 'link' && !name, email: viewer?.email ?? '', guest: v.kind === 'link' },
    canComment: v.kind === 'client' || v.link.allowComment,
    watermarked: marked,
  };
}

/**
 * Images a gallery page carries in its HTML; the viewer's island fetches the rest from the API
 * as soon as it starts. A 2,000-image gallery in the page was 1 MB of HTML that the browser
 * parsed and the island revived before the first image could paint (issue 42: a median of
 * 1.56 s on this machine; with the first 100 carried, 0.85-0.91 s).
 */
export const PAGE_IMAGES = 100;

/**
 * The island's props for a gallery page: the view with its first PAGE_IMAGES images as one JSON
 * string (an object would be serialised and revived value by value), how many images it has,
 * and its cover (the hero shows it at once even when it is further on).
 */
export function galleryPageProps(view: ViewerGallery): { initialJson: string; total: number; cover: ViewerImage | null } {
  const images = view.images.slice(0, PAGE_IMAGES);
  const cover = view.images.find((i) => i.id === view.coverImageId) ?? null;
  return { initialJson: JSON.stringify({ ...view, images }), total: view.images.length, cover };
}
