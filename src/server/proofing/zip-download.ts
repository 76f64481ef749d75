// A whole gallery, set, list or the hearts as one ZIP (issue 42), streamed as it is read: no
// temporary archive, memory bounded by the response's pace (a 1 GB gallery starts at once,
// bench/proofing-zip.mjs). Only images whose package allows the size asked for go in; each is a
// row of the download log, written before the first byte.
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { APIContext } from 'astro';
import { db } from '../../db/index.ts';
import { gallerySets, proofMarks, selectionItems, selectionLists, selections } from '../../db/schema.ts';
import { badRequest, HttpError, json, notFound } from '../http.ts';
import { cleanName, contentDisposition, storedChunks } from '../media/delivery.ts';
import { currentNodeResponse } from '../media/node-response.ts';
import { pacedChunks } from '../media/paced-stream.ts';
import { tierSizes } from '../../shared/schemas/proofing.ts';
import { markedVariant, viewerOf, type Viewing } from './access.ts';
import { storage } from '../storage/index.ts';
import { imageTier, reserveDownloads, SIZE_NOT_OFFERED, type DownloadItem } from './downloads.ts';
import { downloadFile, downloadFileName, parseSize } from './files.ts';
import { galleryImageRows } from './galleries.ts';
import { sortImages } from './order.ts';
import { zipStream, type ZipEntry } from './zip.ts';

const idParam = (value: string | null, what: string) => {
  if (value == null) return null;
  if (!/^[1-9]\d{0,15}$/.test(value)) throw badRequest(`${what}: must be an id`);
  return Number(value);
};

/** "IMG_1.jpg", then "IMG_1 (2).jpg" for a second image of the same name in the same folder. */
function uniqueName(taken: Set<string>, folder: string, name: string): string {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  let candidate = `${folder}${name}`;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${folder}${stem} (${n})${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

export async function serveGalleryZip(v: Viewing): Promise<Response> {
  const ctx = v.ctx as APIContext;
  const q = ctx.url.searchParams;
  const size = parseSize(q.get('size'));
  const marked = markedVariant(v);
  if (marked && size !== 'web2048') throw new HttpError(403, SIZE_NOT_OFFERED);
  const setId = idParam(q.get('set'), 'set');
  const listId = idParam(q.get('list'), 'list');
  const hearts = q.get('hearts') === '1';
  const g = v.gallery;

  const sets = await db.select().from(gallerySets).where(eq(gallerySets.galleryId, g.id));
  let rows = sortImages(await galleryImageRows(g.id), g.sortOrder);
  let label = '';
  if (setId != null) {
    const set = sets.find((s) => s.id === setId);
    if (!set) throw notFound('Set not found');
    rows = rows.filter((r) => r.setId === setId);
    label = set.name;
  } else if (listId != null || hearts) {
    const viewer = await viewerOf(v, false);
    let chosen = new Set<number>();
    if (listId != null) {
      const [list] = await db.select().from(selectionLists).where(and(eq(selectionLists.id, listId), eq(selectionLists.galleryId, g.id))).limit(1);
      if (!list) throw notFound('Selection list not found');
      label = list.name;
      if (viewer) {
        const items = await db
          .select({ id: selectionItems.imageId })
          .from(selectionItems)
          .innerJoin(selections, eq(selections.id, selectionItems.selectionId))
          .where(and(eq(selections.listId, listId), eq(selections.viewerId, viewer.id)));
        chosen = new Set(items.map((i) => i.id));
      }
    } else {
      label = 'Hearts';
      if (viewer) chosen = new Set((await db.select({ id: proofMarks.imageId }).from(proofMarks).where(and(eq(proofMarks.viewerId, viewer.id), eq(proofMarks.heart, true)))).map((m) => m.id));
    }
    rows = rows.filter((r) => chosen.has(r.id));
  }
  if (!rows.length) throw new HttpError(409, 'There is nothing to download here yet.');
  const tierOfSet = new Map(sets.map((s) => [s.id, s.downloadTier]));
  const allowed = rows
    .map((r) => ({ ...r, tier: imageTier(g.downloadTier, r.setId != null ? tierOfSet.get(r.setId) : null) }))
    .filter((r) => tierSizes(r.tier).includes(size));
  if (!allowed.length) throw new HttpError(403, SIZE_NOT_OFFERED);
  if (marked) {
    const made = await Promise.all(allowed.map((r) => storage.exists(r.storageKey, marked)));
    if (made.includes(false)) throw new HttpError(409, 'The watermarked copies are still being made. Please try again in a few minutes.');
  }

  // Folders by set for the whole gallery; one folder's worth otherwise.
  const setName = new Map(sets.map((s) => [s.id, cleanName(s.name) || `Set ${s.id}`]));
  const taken = new Set<string>();
  const entries = allowed.map((r) => {
    const folder = setId == null && listId == null && !hearts && r.setId != null ? `${setName.get(r.setId)}/` : '';
    return { row: r, name: uniqueName(taken, folder, downloadFileName(r, size)) };
  });
  const items: DownloadItem[] = entries.map((e) => ({ imageId: e.row.id, mediaId: e.row.mediaId, tier: e.row.tier, fileName: e.name }));
  if (q.get('check') === '1') {
    await reserveDownloads(v, items, size, null, true);
    return json({ ok: true, files: items.length });
  }
  await reserveDownloads(v, items, size, randomBytes(8).toString('hex'));

  const zipEntries: ZipEntry[] = entries.map(({ row, name }) => ({
    name,
    mtime: row.capturedAt ?? new Date(),
    async open() {
      const variant = marked ?? (await downloadFile(row, size, g.highResEdge));
      const chunks = await storedChunks(row.storageKey, variant);
      if (!chunks) throw new Error(`Missing file ${row.storageKey}/${variant}`);
      return chunks;
    },
  }));
  const archive = zipStream(zipEntries);
  const title = cleanName(`${g.title}${label ? ` - ${label}` : ''}`) || 'gallery';
  return new Response(
    pacedChunks(archive, currentNodeResponse(), () => void archive.return(undefined)),
    {
      status: 200,
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': contentDisposition(`${title}.zip`),
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    },
  );
}
