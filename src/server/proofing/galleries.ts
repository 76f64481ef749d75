// Galleries as staff make and keep them (issue 42): the gallery with its settings, its images
// (from the library or uploaded into it), sets, selection lists and the clients it is shared
// with. Viewers' side is in access.ts, view.ts and picking.ts.
import { and, asc, count, desc, eq, inArray, isNull, max, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clients, galleries, galleryClients, galleryImages, gallerySets, media, mediaVersions, selectionLists, selections, shareLinks, stills } from '../../db/schema.ts';
import { badRequest, notFound } from '../http.ts';
import { mediaUrl, stillVariant } from '../storage/paths.ts';
import { isRawMime } from '../media/raw.ts';
import { listGalleryLinks } from '../sharing/links.ts';
import type { ClientGallerySummary, GalleryDetail, GallerySettingsInput, GallerySummary, StaffGalleryImage } from '../../shared/schemas/proofing.ts';
import type { z } from '../../shared/zod.ts';
import type { galleryCreateSchema, gallerySetSchema, gallerySetUpdateSchema, selectionListSchema, selectionListUpdateSchema } from '../../shared/schemas/proofing.ts';
import { endOfStudioDay, isExpired, studioToday } from './expiry.ts';
import { sortImages } from './order.ts';
import { enqueueStills } from './stills.ts';
import { enqueueGalleryLinkPreviews } from '../sharing/watermark-jobs.ts';
import { recordGalleryShared } from './notify.ts';
import { forgetPinPasses } from './pin.ts';

export type GalleryRow = typeof galleries.$inferSelect;
type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];

export async function galleryRow(id: number): Promise<GalleryRow> {
  const [row] = await db.select().from(galleries).where(eq(galleries.id, id)).limit(1);
  if (!row) throw notFound('Gallery not found');
  return row;
}

/** Chunks of ids small enough for one statement's variables. */
function chunks<T>(list: T[], size = 900): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** The images among `mediaIds` with their current version; 400 naming the first that is none. */
async function imagesOf(mediaIds: number[]): Promise<{ mediaId: number; versionId: number }[]> {
  const found: { mediaId: number; versionId: number }[] = [];
  for (const part of chunks(mediaIds)) {
    found.push(
      ...(await db
        .select({ mediaId: media.id, versionId: mediaVersions.id })
        .from(media)
        .innerJoin(mediaVersions, eq(mediaVersions.storageKey, media.storageKey))
        .where(and(inArray(media.id, part), eq(media.type, 'image')))),
    );
  }
  const have = new Set(found.map((f) => f.mediaId));
  const missing = mediaIds.find((id) => !have.has(id));
  if (missing !== undefined) throw badRequest(`mediaIds: No image ${missing} in the library (galleries hold images only)`);
  return found;
}

export async function assertSet(galleryId: number, setId: number | null, r: Pick<typeof db, 'select'> = db): Promise<void> {
  if (setId == null) return;
  const [row] = await r
    .select({ id: gallerySets.id })
    .from(gallerySets)
    .where(and(eq(gallerySets.id, setId), eq(gallerySets.galleryId, galleryId)))
    .limit(1);
  if (!row) throw badRequest('setId: No such set in this gallery');
}

/** Inserts images after the gallery's last one (existing ones stay where they are); their sizes are queued. */
async function insertImages(tx: Tx, galleryId: number, images: { mediaId: number; versionId: number }[], setId: number | null): Promise<number> {
  const [last] = await tx
    .select({ p: max(galleryImages.position) })
    .from(galleryImages)
    .where(eq(galleryImages.galleryId, galleryId));
  let position = (last?.p ?? -1) + 1;
  let added = 0;
  for (const part of chunks(images, 500)) {
    const rows = await tx
      .insert(galleryImages)
      .values(
        part.map((i) => ({
          galleryId,
          mediaId: i.mediaId,
          setId,
          position: position++,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: galleryImages.id });
    added += rows.length;
  }
  await enqueueStills(tx, images);
  await enqueueGalleryLinkPreviews(tx, galleryId, images);
  return added;
}

export async function createGallery(input: z.output<typeof galleryCreateSchema>, staffId: string): Promise<GalleryDetail> {
  const images = input.mediaIds.length ? await imagesOf(input.mediaIds) : [];
  // Keep the order the ids were sent in (the library's selection order).
  const order = new Map(input.mediaIds.map((id, i) => [id, i]));
  images.sort((a, b) => order.get(a.mediaId)! - order.get(b.mediaId)!);
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(galleries)
      .values({
        title: input.title,
        sortOrder: input.sortOrder,
        createdBy: staffId,
      })
      .returning({ id: galleries.id });
    await insertImages(tx, row!.id, images, null);
    return row!.id;
  });
  return galleryDetail(id);
}

export async function listGalleries(): Promise<GallerySummary[]> {
  const rows = await db.select().from(galleries).orderBy(desc(galleries.createdAt), desc(galleries.id));
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [counts, firsts, clientRows, linkRows, submitted] = await Promise.all([
    db.select({ id: galleryImages.galleryId, n: count() }).from(galleryImages).where(inArray(galleryImages.galleryId, ids)).groupBy(galleryImages.galleryId),
    // The cover, else the first image added.
    db
      .select({
        galleryId: galleryImages.galleryId,
        mediaId: galleryImages.mediaId,
        thumb: media.thumbnailWebpUrl,
        position: galleryImages.position,
      })
      .from(galleryImages)
      .innerJoin(media, eq(media.id, galleryImages.mediaId))
      .where(and(inArray(galleryImages.galleryId, ids), sql`${galleryImages.position} = (SELECT min(g2.position) FROM gallery_images g2 WHERE g2.gallery_id = ${galleryImages.galleryId})`)),
    db
      .select({
        galleryId: galleryClients.galleryId,
        id: clients.id,
        name: clients.name,
      })
      .from(galleryClients)
      .innerJoin(clients, eq(clients.id, galleryClients.clientId))
      .where(inArray(galleryClients.galleryId, ids))
      .orderBy(asc(clients.name)),
    db
      .select({ id: shareLinks.galleryId, n: count() })
      .from(shareLinks)
      .where(and(inArray(shareLinks.galleryId, ids), isNull(shareLinks.revokedAt)))
      .groupBy(shareLinks.galleryId),
    db
      .select({ id: selectionLists.galleryId, n: count() })
      .from(selections)
      .innerJoin(selectionLists, eq(selectionLists.id, selections.listId))
      .where(and(inArray(selectionLists.galleryId, ids), sql`${selections.submittedAt} IS NOT NULL`))
      .groupBy(selectionLists.galleryId),
  ]);
  const covers = rows.filter((r) => r.coverMediaId != null).map((r) => r.coverMediaId!);
  const coverThumbs = covers.length ? await db.select({ id: media.id, thumb: media.thumbnailWebpUrl }).from(media).where(inArray(media.id, covers)) : [];
  return rows.map((g) => ({
    id: g.id,
    title: g.title,
    coverUrl: coverThumbs.find((c) => c.id === g.coverMediaId)?.thumb ?? firsts.find((f) => f.galleryId === g.id)?.thumb ?? null,
    imageCount: Number(counts.find((c) => c.id === g.id)?.n ?? 0),
    clients: clientRows.filter((c) => c.galleryId === g.id).map(({ id, name }) => ({ id, name })),
    links: Number(linkRows.find((l) => l.id === g.id)?.n ?? 0),
    expiresOn: g.expiresOn,
    expired: isExpired(g),
    submitted: Number(submitted.find((s) => s.id === g.id)?.n ?? 0),
    createdAt: g.createdAt.toISOString(),
  }));
}

/** The galleries shared with a client, for its portal (expired ones too: they say so). */
export async function clientGalleries(clientId: number): Promise<ClientGallerySummary[]> {
  const rows = await db
    .select({ g: galleries })
    .from(galleryClients)
    .innerJoin(galleries, eq(galleries.id, galleryClients.galleryId))
    .where(eq(galleryClients.clientId, clientId))
    .orderBy(desc(galleries.createdAt), desc(galleries.id));
  const out: ClientGallerySummary[] = [];
  for (const { g } of rows) {
    const images = await galleryImageRows(g.id);
    const cover = (g.coverMediaId != null ? images.find((i) => i.mediaId === g.coverMediaId) : undefined) ?? sortImages(images, g.sortOrder)[0];
    const file = cover ? (cover.ready ? 'g480.webp' : 'thumb.webp') : null;
    out.push({
      id: g.id,
      title: g.title,
      coverUrl: cover && file && !isExpired(g) ? `/client/galleries/${g.id}/f/${cover.id}/${file}` : null,
      imageCount: images.length,
      expiresOn: g.expiresOn,
      expired: isExpired(g),
    });
  }
  return out;
}

/**
 * Every image of a gallery (or one of them) with the facts the grids and downloads need,
 * unordered. SQLite packs the rows into one JSON array that is parsed natively: the driver's
 * turning of 2,000 × 17 cells into row objects took six times as long as the query itself.
 */
export async function galleryImageRows(galleryId: number, onlyImageId?: number) {
  const [packed] = await db.all<{ rows: string | null }>(sql`
    SELECT json_group_array(json_array(gi.id, gi.media_id, gi.set_id, gi.position, m.title, v.filename, v.width, v.height,
      v.mime_type, v.storage_key, v.url, v.thumbnail_webp_url, v.id, s.status, s.captured_at, s.camera, s.lens)) AS rows
    FROM gallery_images gi
    JOIN media m ON m.id = gi.media_id
    JOIN media_versions v ON v.storage_key = m.storage_key
    LEFT JOIN stills s ON s.version_id = v.id
    WHERE gi.gallery_id = ${galleryId} ${onlyImageId ? sql`AND gi.id = ${onlyImageId}` : sql``}`);
  type Cells = [number, number, number | null, number, string, string, number | null, number | null, string, string, string, string | null, number, string | null, number | null, string | null, string | null];
  return (JSON.parse(packed?.rows ?? '[]') as Cells[]).map((c) => ({
    id: c[0],
    mediaId: c[1],
    setId: c[2],
    position: c[3],
    title: c[4],
    filename: c[5],
    width: c[6] ?? 1,
    height: c[7] ?? 1,
    mimeType: c[8],
    storageKey: c[9],
    url: c[10],
    thumbnailWebpUrl: c[11],
    versionId: c[12],
    stillStatus: c[13],
    capturedAt: c[14] == null ? null : new Date(c[14]),
    camera: c[15],
    lens: c[16],
    ready: c[13] === 'ready',
  }));
}

/**
 * The viewer's lighter read of the same (the gallery answer for 2,000 images within 100 ms):
 * only what the grid shows, packed the same way.
 */
export async function viewerImageRows(galleryId: number) {
  const [packed] = await db.all<{ rows: string | null }>(sql`
    SELECT json_group_array(json_array(gi.id, gi.media_id, gi.set_id, gi.position, v.filename, v.width, v.height, s.status, s.captured_at, s.camera, s.lens, v.id)) AS rows
    FROM gallery_images gi
    JOIN media m ON m.id = gi.media_id
    JOIN media_versions v ON v.storage_key = m.storage_key
    LEFT JOIN stills s ON s.version_id = v.id
    WHERE gi.gallery_id = ${galleryId}`);
  type Cells = [number, number, number | null, number, string, number | null, number | null, string | null, number | null, string | null, string | null, number];
  return (JSON.parse(packed?.rows ?? '[]') as Cells[]).map((c) => ({
    id: c[0],
    mediaId: c[1],
    setId: c[2],
    position: c[3],
    filename: c[4],
    width: c[5] ?? 1,
    height: c[6] ?? 1,
    ready: c[7] === 'ready',
    capturedAt: c[8] == null ? null : new Date(c[8]),
    camera: c[9],
    lens: c[10],
    versionId: c[11],
  }));
}

export type GalleryImageRow = Awaited<ReturnType<typeof galleryImageRows>>[number];

export async function galleryDetail(id: number): Promise<GalleryDetail> {
  const g = await galleryRow(id);
  const [rows, sets, lists, clientRows, links] = await Promise.all([
    galleryImageRows(id),
    db.select().from(gallerySets).where(eq(gallerySets.galleryId, id)).orderBy(asc(gallerySets.position), asc(gallerySets.id)),
    db.select().from(selectionLists).where(eq(selectionLists.galleryId, id)).orderBy(asc(selectionLists.position), asc(selectionLists.id)),
    db
      .select({ id: clients.id, name: clients.name })
      .from(galleryClients)
      .innerJoin(clients, eq(clients.id, galleryClients.clientId))
      .where(eq(galleryClients.galleryId, id))
      .orderBy(asc(clients.name)),
    listGalleryLinks(id),
  ]);
  const images: StaffGalleryImage[] = sortImages(rows, g.sortOrder).map((r) => ({
    id: r.id,
    mediaId: r.mediaId,
    filename: r.filename,
    title: r.title,
    width: r.width,
    height: r.height,
    setId: r.setId,
    position: r.position,
    capturedAt: r.capturedAt?.toISOString() ?? null,
    camera: r.camera,
    lens: r.lens,
    // Staff see the library, so they fetch the item's own files under /media.
    thumbUrl: r.ready ? mediaUrl(r.storageKey, stillVariant(480, 'webp')) : r.thumbnailWebpUrl,
    ready: r.ready,
    raw: isRawMime(r.mimeType),
  }));
  return {
    id: g.id,
    title: g.title,
    sortOrder: g.sortOrder,
    coverMediaId: g.coverMediaId,
    downloadTier: g.downloadTier,
    highResEdge: g.highResEdge,
    highResCap: g.highResCap,
    downloadPin: g.downloadPin,
    expiresOn: g.expiresOn,
    expiresAt: g.expiresAt?.toISOString() ?? null,
    expired: isExpired(g),
    reminderDays: g.reminderDays,
    sets: sets.map((s) => ({
      id: s.id,
      name: s.name,
      downloadTier: s.downloadTier,
    })),
    lists: lists.map((l) => ({
      id: l.id,
      name: l.name,
      minCount: l.minCount,
      maxCount: l.maxCount,
    })),
    clients: clientRows,
    images,
    links,
  };
}

export async function updateGallery(id: number, input: GallerySettingsInput): Promise<GalleryDetail> {
  const before = await galleryRow(id);
  const set: Partial<typeof galleries.$inferInsert> = { updatedAt: new Date() };
  if (input.title !== undefined) set.title = input.title;
  if (input.sortOrder !== undefined) set.sortOrder = input.sortOrder;
  if (input.downloadTier !== undefined) set.downloadTier = input.downloadTier;
  if (input.highResEdge !== undefined) set.highResEdge = input.highResEdge;
  if (input.highResCap !== undefined) set.highResCap = input.highResCap;
  if (input.downloadPin !== undefined) set.downloadPin = input.downloadPin;
  const pinChanged = input.downloadPin !== undefined && input.downloadPin !== before.downloadPin;
  if (input.reminderDays !== undefined) set.reminderDays = input.reminderDays;
  if (input.coverMediaId !== undefined) {
    if (input.coverMediaId != null) {
      const [inGallery] = await db
        .select({ id: galleryImages.id })
        .from(galleryImages)
        .where(and(eq(galleryImages.galleryId, id), eq(galleryImages.mediaId, input.coverMediaId)))
        .limit(1);
      if (!inGallery) throw badRequest('coverMediaId: The cover must be one of the gallery’s images');
    }
    set.coverMediaId = input.coverMediaId;
  }
  if (input.expiresOn !== undefined) {
    // Extending is the usual change; a day already over would close the gallery at once.
    if (input.expiresOn != null && input.expiresOn < studioToday()) throw badRequest('expiresOn: The last day must be today or later');
    set.expiresOn = input.expiresOn;
    set.expiresAt = input.expiresOn ? endOfStudioDay(input.expiresOn) : null;
  }
  await db.update(galleries).set(set).where(eq(galleries.id, id));
  // Browsers that entered the old PIN must enter the new one.
  if (pinChanged) await forgetPinPasses(id);
  return galleryDetail(id);
}

/**
 * Stills uploaded into the gallery that leave it go to the library (issue 53): `mediaIds` of
 * them, or all of them when the gallery is deleted.
 */
export async function releaseStills(galleryId: number, mediaIds: number[] | 'all', tx: Pick<typeof db, 'update'> = db): Promise<void> {
  const parts = mediaIds === 'all' ? [undefined] : chunks(mediaIds);
  for (const part of parts) {
    await tx
      .update(media)
      .set({ galleryId: null })
      .where(and(eq(media.galleryId, galleryId), part ? inArray(media.id, part) : undefined));
  }
}

/** Deletes the gallery; its links are revoked (kept for their log) and let go of it first. */
export async function deleteGallery(id: number): Promise<void> {
  await galleryRow(id);
  await db.transaction(async (tx) => {
    await releaseStills(id, 'all', tx);
    await tx
      .update(shareLinks)
      .set({
        revokedAt: sql`coalesce(${shareLinks.revokedAt}, ${Date.now()})`,
        galleryId: null,
      })
      .where(eq(shareLinks.galleryId, id));
    await tx.delete(galleries).where(eq(galleries.id, id));
  });
}

export async function addImages(galleryId: number, mediaIds: number[], setId: number | null): Promise<{ added: number }> {
  await galleryRow(galleryId);
  await assertSet(galleryId, setId);
  const images = await imagesOf(mediaIds);
  const order = new Map(mediaIds.map((id, i) => [id, i]));
  images.sort((a, b) => order.get(a.mediaId)! - order.get(b.mediaId)!);
  const added = await db.transaction((tx) => insertImages(tx, galleryId, images, setId));
  return { added };
}

/** Adds one item made from an upload into the gallery (the tray's batch uploads). */
export async function addUploadedImage(galleryId: number, mediaId: number, setId: number | null): Promise<void> {
  const images = await imagesOf([mediaId]);
  await db.transaction((tx) => insertImages(tx, galleryId, images, setId));
}

async function assertImageIds(galleryId: number, imageIds: number[]): Promise<void> {
  const found: number[] = [];
  for (const part of chunks(imageIds)) {
    found.push(
      ...(
        await db
          .select({ id: galleryImages.id })
          .from(galleryImages)
          .where(and(eq(galleryImages.galleryId, galleryId), inArray(galleryImages.id, part)))
      ).map((r) => r.id),
    );
  }
  const have = new Set(found);
  const missing = imageIds.find((i) => !have.has(i));
  if (missing !== undefined) throw badRequest(`imageIds: No image ${missing} in this gallery`);
}

export async function moveImages(galleryId: number, imageIds: number[], setId: number | null): Promise<void> {
  await galleryRow(galleryId);
  await assertSet(galleryId, setId);
  await assertImageIds(galleryId, imageIds);
  await db.transaction(async (tx) => {
    for (const part of chunks(imageIds))
      await tx
        .update(galleryImages)
        .set({ setId })
        .where(and(eq(galleryImages.galleryId, galleryId), inArray(galleryImages.id, part)));
  });
}

/** Takes images out of the gallery (the library keeps them, or gets them: releaseStills); their picks and marks go with them. */
export async function removeImages(galleryId: number, imageIds: number[]): Promise<void> {
  await galleryRow(galleryId);
  await assertImageIds(galleryId, imageIds);
  await db.transaction(async (tx) => {
    const gone: number[] = [];
    for (const part of chunks(imageIds)) {
      gone.push(
        ...(
          await tx
            .delete(galleryImages)
            .where(and(eq(galleryImages.galleryId, galleryId), inArray(galleryImages.id, part)))
            .returning({ mediaId: galleryImages.mediaId })
        ).map((r) => r.mediaId),
      );
    }
    await tx
      .update(galleries)
      .set({ coverMediaId: null })
      .where(and(eq(galleries.id, galleryId), inArray(galleries.coverMediaId, gone.length ? gone : [-1])));
    await releaseStills(galleryId, gone, tx);
  });
}

/** The manual order: every image of the gallery, once each. */
export async function reorderImages(galleryId: number, imageIds: number[]): Promise<void> {
  await galleryRow(galleryId);
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(galleryImages).where(eq(galleryImages.galleryId, galleryId));
  if (imageIds.length !== Number(n)) throw badRequest(`imageIds: Send every image of the gallery (${n}), in the new order`);
  await assertImageIds(galleryId, imageIds);
  await db.transaction(async (tx) => {
    // One statement per 500: a CASE over the ids sets every position at once.
    for (let i = 0; i < imageIds.length; i += 500) {
      const part = imageIds.slice(i, i + 500);
      const cases = sql.join(
        part.map((id, j) => sql`WHEN ${id} THEN ${i + j}`),
        sql` `,
      );
      await tx
        .update(galleryImages)
        .set({ position: sql`CASE ${galleryImages.id} ${cases} END` })
        .where(inArray(galleryImages.id, part));
    }
    await tx.update(galleries).set({ sortOrder: 'manual', updatedAt: new Date() }).where(eq(galleries.id, galleryId));
  });
}

// ---- Sets ----------------------------------------------------------------------------------

export async function createSet(galleryId: number, input: z.output<typeof gallerySetSchema>) {
  await galleryRow(galleryId);
  const [last] = await db
    .select({ p: max(gallerySets.position) })
    .from(gallerySets)
    .where(eq(gallerySets.galleryId, galleryId));
  const [row] = await db
    .insert(gallerySets)
    .values({
      galleryId,
      name: input.name,
      downloadTier: input.downloadTier,
      position: (last?.p ?? -1) + 1,
    })
    .returning();
  return { id: row!.id, name: row!.name, downloadTier: row!.downloadTier };
}

async function setRow(galleryId: number, setId: number) {
  const [row] = await db
    .select()
    .from(gallerySets)
    .where(and(eq(gallerySets.id, setId), eq(gallerySets.galleryId, galleryId)))
    .limit(1);
  if (!row) throw notFound('Set not found');
  return row;
}

export async function updateSet(galleryId: number, setId: number, input: z.output<typeof gallerySetUpdateSchema>) {
  await setRow(galleryId, setId);
  const [row] = await db.update(gallerySets).set(input).where(eq(gallerySets.id, setId)).returning();
  return { id: row!.id, name: row!.name, downloadTier: row!.downloadTier };
}

/** The set goes; its images stay in the gallery, in no set. */
export async function deleteSet(galleryId: number, setId: number): Promise<void> {
  await setRow(galleryId, setId);
  await db.delete(gallerySets).where(eq(gallerySets.id, setId));
}

// ---- Selection lists -----------------------------------------------------------------------

export async function createList(galleryId: number, input: z.output<typeof selectionListSchema>) {
  await galleryRow(galleryId);
  const [last] = await db
    .select({ p: max(selectionLists.position) })
    .from(selectionLists)
    .where(eq(selectionLists.galleryId, galleryId));
  const [row] = await db
    .insert(selectionLists)
    .values({
      galleryId,
      name: input.name,
      minCount: input.minCount,
      maxCount: input.maxCount,
      position: (last?.p ?? -1) + 1,
    })
    .returning();
  return {
    id: row!.id,
    name: row!.name,
    minCount: row!.minCount,
    maxCount: row!.maxCount,
  };
}

async function listRow(galleryId: number, listId: number) {
  const [row] = await db
    .select()
    .from(selectionLists)
    .where(and(eq(selectionLists.id, listId), eq(selectionLists.galleryId, galleryId)))
    .limit(1);
  if (!row) throw notFound('Selection list not found');
  return row;
}

/** New bounds apply to the next pick and the next submission; picks already made stay. */
export async function updateList(galleryId: number, listId: number, input: z.output<typeof selectionListUpdateSchema>) {
  const current = await listRow(galleryId, listId);
  const next = { ...current, ...input };
  if (next.maxCount != null && next.minCount > next.maxCount) throw badRequest('minCount: The minimum must not be above the maximum');
  const [row] = await db.update(selectionLists).set(input).where(eq(selectionLists.id, listId)).returning();
  return {
    id: row!.id,
    name: row!.name,
    minCount: row!.minCount,
    maxCount: row!.maxCount,
  };
}

export async function deleteList(galleryId: number, listId: number): Promise<void> {
  await listRow(galleryId, listId);
  await db.delete(selectionLists).where(eq(selectionLists.id, listId));
}

// ---- Clients -------------------------------------------------------------------------------

/** The clients who see the gallery in their portal; the ones added now hear of it. */
export async function setGalleryClients(galleryId: number, clientIds: number[]): Promise<{ id: number; name: string }[]> {
  const g = await galleryRow(galleryId);
  const found = clientIds.length ? await db.select({ id: clients.id }).from(clients).where(inArray(clients.id, clientIds)) : [];
  const missing = clientIds.find((id) => !found.some((f) => f.id === id));
  if (missing !== undefined) throw badRequest(`clientIds: No client ${missing}`);
  const added = await db.transaction(async (tx) => {
    const before = await tx.select({ id: galleryClients.clientId }).from(galleryClients).where(eq(galleryClients.galleryId, galleryId));
    await tx.delete(galleryClients).where(eq(galleryClients.galleryId, galleryId));
    if (clientIds.length) await tx.insert(galleryClients).values(clientIds.map((clientId) => ({ galleryId, clientId })));
    return clientIds.filter((id) => !before.some((b) => b.id === id));
  });
  if (added.length && !isExpired(g)) await recordGalleryShared(g, added);
  return db
    .select({ id: clients.id, name: clients.name })
    .from(galleryClients)
    .innerJoin(clients, eq(clients.id, galleryClients.clientId))
    .where(eq(galleryClients.galleryId, galleryId))
    .orderBy(asc(clients.name));
}
