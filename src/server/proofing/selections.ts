// The studio's side of selections (issue 42): every viewer's lists with their counts, reopening
// a submitted list with a note, and exports: CSV, and the file names (without extensions,
// comma-separated) to paste into Lightroom's filter.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientUsers, clients, gallerySets, proofMarks, proofViewers, selectionItems, selectionLists, selections, shareLinks } from '../../db/schema.ts';
import { conflict, notFound } from '../http.ts';
import type { SelectionSummary } from '../../shared/schemas/proofing.ts';
import { galleryImageRows, galleryRow } from './galleries.ts';
import { fileStem, sortImages } from './order.ts';
import { recordSelectionReopened } from './notify.ts';
import { csvCell } from '../csv.ts';

export async function listSelections(galleryId: number): Promise<SelectionSummary[]> {
  await galleryRow(galleryId);
  const rows = await db
    .select({
      s: selections,
      list: selectionLists,
      viewer: proofViewers,
      clientName: clients.name,
      linkName: shareLinks.name,
      count: sql<number>`(SELECT count(*) FROM selection_items si WHERE si.selection_id = ${selections.id})`.mapWith(Number),
      hearts: sql<number>`(SELECT count(*) FROM proof_marks pm WHERE pm.viewer_id = ${proofViewers.id} AND pm.heart = 1)`.mapWith(Number),
    })
    .from(selections)
    .innerJoin(selectionLists, eq(selectionLists.id, selections.listId))
    .innerJoin(proofViewers, eq(proofViewers.id, selections.viewerId))
    .leftJoin(clientUsers, eq(clientUsers.id, proofViewers.clientUserId))
    .leftJoin(clients, eq(clients.id, clientUsers.clientId))
    .leftJoin(shareLinks, eq(shareLinks.id, proofViewers.linkId))
    .where(eq(selectionLists.galleryId, galleryId))
    .orderBy(asc(selectionLists.position), asc(selectionLists.id), asc(proofViewers.name), asc(selections.id));
  return rows.map((r) => ({
    id: r.s.id,
    listId: r.list.id,
    listName: r.list.name,
    minCount: r.list.minCount,
    maxCount: r.list.maxCount,
    viewerId: r.viewer.id,
    viewerName: r.viewer.name || 'Guest',
    via: r.viewer.linkId != null ? `Link “${r.linkName ?? ''}”` : `Client ${r.clientName ?? ''}`,
    count: r.count,
    hearts: r.hearts,
    submittedAt: r.s.submittedAt?.toISOString() ?? null,
    reopenedAt: r.s.reopenedAt?.toISOString() ?? null,
    reopenNote: r.s.reopenNote,
  }));
}

async function selectionOf(galleryId: number, selectionId: number) {
  const [row] = await db
    .select({ s: selections, list: selectionLists, viewer: proofViewers })
    .from(selections)
    .innerJoin(selectionLists, eq(selectionLists.id, selections.listId))
    .innerJoin(proofViewers, eq(proofViewers.id, selections.viewerId))
    .where(and(eq(selections.id, selectionId), eq(selectionLists.galleryId, galleryId)))
    .limit(1);
  if (!row) throw notFound('Selection not found');
  return row;
}

/** Opens a submitted list again so its viewer can change it; they see the note (and a client login hears of it). */
export async function reopenSelection(galleryId: number, selectionId: number, note: string, staffId: string): Promise<SelectionSummary> {
  const g = await galleryRow(galleryId);
  const { s, list, viewer } = await selectionOf(galleryId, selectionId);
  if (!s.submittedAt) throw conflict('This list has not been submitted, so it is open already.');
  await db.update(selections).set({ submittedAt: null, reopenedAt: new Date(), reopenNote: note, reopenedBy: staffId }).where(eq(selections.id, selectionId));
  if (viewer.clientUserId != null) await recordSelectionReopened(g, list, viewer.clientUserId, note);
  return (await listSelections(galleryId)).find((x) => x.id === selectionId)!;
}

/** The picked images of one selection, in the gallery's order, with the viewer's marks. */
async function pickedRows(galleryId: number, selectionId: number) {
  const g = await galleryRow(galleryId);
  const { s, list, viewer } = await selectionOf(galleryId, selectionId);
  const items = await db.select({ imageId: selectionItems.imageId }).from(selectionItems).where(eq(selectionItems.selectionId, selectionId));
  const ids = new Set(items.map((i) => i.imageId));
  const rows = sortImages((await galleryImageRows(galleryId)).filter((r) => ids.has(r.id)), g.sortOrder);
  const marks = ids.size ? await db.select().from(proofMarks).where(and(eq(proofMarks.viewerId, viewer.id), inArray(proofMarks.imageId, [...ids]))) : [];
  return { g, s, list, viewer, rows, marks: new Map(marks.map((m) => [m.imageId, m])) };
}

export async function exportSelection(galleryId: number, selectionId: number, format: 'csv' | 'lightroom'): Promise<{ body: string; type: string; filename: string }> {
  const { g, list, viewer, rows, marks } = await pickedRows(galleryId, selectionId);
  const base = `${g.title} - ${list.name} - ${viewer.name || 'Guest'}`.replace(/[^\p{L}\p{N} ._()-]+/gu, ' ').trim();
  if (format === 'lightroom') {
    // Lightroom's Library filter ("Filename contains") takes the names separated by commas.
    return { body: rows.map((r) => fileStem(r.filename)).join(','), type: 'text/plain; charset=utf-8', filename: `${base}.txt` };
  }
  const header = ['File name', 'Name without extension', 'Title', 'Set', 'Stars', 'Heart', 'Captured', 'Camera', 'Lens'];
  const sets = new Map((await db.select({ id: gallerySets.id, name: gallerySets.name }).from(gallerySets).where(eq(gallerySets.galleryId, galleryId))).map((s) => [s.id, s.name]));
  const lines = rows.map((r) => {
    const m = marks.get(r.id);
    return [r.filename, fileStem(r.filename), r.title, r.setId != null ? (sets.get(r.setId) ?? '') : '', m?.stars ?? 0, m?.heart ? 'yes' : 'no', r.capturedAt?.toISOString() ?? '', r.camera ?? '', r.lens ?? '']
      .map((v) => csvCell(v))
      .join(',');
  });
  return { body: [header.join(','), ...lines].join('\r\n') + '\r\n', type: 'text/csv; charset=utf-8', filename: `${base}.csv` };
}
