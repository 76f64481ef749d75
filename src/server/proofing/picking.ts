// A viewer's picking (issue 42): hearts and 1-5 stars per image, picks into the gallery's
// selection lists within the bounds staff set ("12 / 30"; the 31st is refused with a message),
// and submitting a list, which locks it until the studio reopens it.
import { and, count, eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { galleryImages, proofMarks, selectionItems, selectionLists, selections } from '../../db/schema.ts';
import { conflict, notFound } from '../http.ts';
import { formatDate } from '../../shared/format.ts';
import type { ViewerList } from '../../shared/schemas/proofing.ts';
import { viewerName, viewerOf, viewerOrigin, type Viewing } from './access.ts';
import { auditIn } from '../audit/record.ts';
import { viewerLists } from './view.ts';
import { recordSelectionSubmitted } from './notify.ts';

export const capReached = (name: string, max: number) => `You have picked ${max} of ${max} for “${name}”. Remove one to pick another.`;
export const listLocked = (name: string, at: Date) => `You submitted “${name}” on ${formatDate(at)}, so it is locked. Ask the studio to reopen it if you need to change it.`;
export const tooFew = (name: string, min: number, n: number) => `Pick at least ${min} for “${name}” before you submit (you have ${n}).`;
export const nothingPicked = (name: string) => `Pick at least one image for “${name}” before you submit.`;

async function assertImage(v: Viewing, imageId: number): Promise<void> {
  const [row] = await db.select({ id: galleryImages.id }).from(galleryImages).where(and(eq(galleryImages.id, imageId), eq(galleryImages.galleryId, v.gallery.id))).limit(1);
  if (!row) throw notFound('Image not found');
}

async function listOf(v: Viewing, listId: number) {
  const [row] = await db.select().from(selectionLists).where(and(eq(selectionLists.id, listId), eq(selectionLists.galleryId, v.gallery.id))).limit(1);
  if (!row) throw notFound('Selection list not found');
  return row;
}

export async function setMark(v: Viewing, imageId: number, input: { heart?: boolean; stars?: number }): Promise<{ heart: boolean; stars: number }> {
  await assertImage(v, imageId);
  const viewer = await viewerOf(v, true);
  const set = { ...(input.heart !== undefined ? { heart: input.heart } : {}), ...(input.stars !== undefined ? { stars: input.stars } : {}) };
  const [row] = await db
    .insert(proofMarks)
    .values({ viewerId: viewer.id, imageId, heart: input.heart ?? false, stars: input.stars ?? 0 })
    .onConflictDoUpdate({ target: [proofMarks.viewerId, proofMarks.imageId], set })
    .returning();
  return { heart: row!.heart, stars: row!.stars };
}

async function listAnswer(v: Viewing, viewerId: number, listId: number): Promise<ViewerList> {
  return (await viewerLists(v.gallery.id, viewerId)).find((l) => l.id === listId)!;
}

/**
 * Picks an image into a list (or takes it out). Inside one IMMEDIATE transaction the count is
 * checked and the row written, so picks sent at once never pass the maximum together.
 */
export async function pick(v: Viewing, listId: number, imageId: number, on: boolean): Promise<ViewerList> {
  const list = await listOf(v, listId);
  await assertImage(v, imageId);
  const viewer = await viewerOf(v, true);
  await db.transaction(async (tx) => {
    await tx.insert(selections).values({ listId, viewerId: viewer.id }).onConflictDoNothing();
    const [sel] = await tx.select().from(selections).where(and(eq(selections.listId, listId), eq(selections.viewerId, viewer.id))).limit(1);
    if (sel!.submittedAt) throw conflict(listLocked(list.name, sel!.submittedAt));
    if (!on) {
      await tx.delete(selectionItems).where(and(eq(selectionItems.selectionId, sel!.id), eq(selectionItems.imageId, imageId)));
      return;
    }
    const [have] = await tx.select({ id: selectionItems.imageId }).from(selectionItems).where(and(eq(selectionItems.selectionId, sel!.id), eq(selectionItems.imageId, imageId))).limit(1);
    if (have) return;
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(selectionItems).where(eq(selectionItems.selectionId, sel!.id));
    if (list.maxCount != null && Number(n) >= list.maxCount) throw conflict(capReached(list.name, list.maxCount));
    await tx.insert(selectionItems).values({ selectionId: sel!.id, imageId });
  });
  return listAnswer(v, viewer.id, listId);
}

/** Sends the list to the studio: within its bounds, once (locked until staff reopen it); staff are notified. */
export async function submit(v: Viewing, listId: number): Promise<ViewerList> {
  const list = await listOf(v, listId);
  const viewer = await viewerOf(v, true);
  const n = await db.transaction(async (tx) => {
    await tx.insert(selections).values({ listId, viewerId: viewer.id }).onConflictDoNothing();
    const [sel] = await tx.select().from(selections).where(and(eq(selections.listId, listId), eq(selections.viewerId, viewer.id))).limit(1);
    if (sel!.submittedAt) throw conflict(listLocked(list.name, sel!.submittedAt));
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(selectionItems).where(eq(selectionItems.selectionId, sel!.id));
    const picked = Number(n);
    if (picked === 0) throw conflict(nothingPicked(list.name));
    if (picked < list.minCount) throw conflict(tooFew(list.name, list.minCount, picked));
    // Staff may have lowered the maximum after these picks were made.
    if (list.maxCount != null && picked > list.maxCount) throw conflict(`“${list.name}” allows ${list.maxCount}; remove ${picked - list.maxCount} before you submit.`);
    await tx.update(selections).set({ submittedAt: new Date() }).where(eq(selections.id, sel!.id));
    await auditIn(tx, viewerOrigin(v), { kind: 'selection.submitted', object: { type: 'gallery', id: v.gallery.id, name: v.gallery.title }, detail: { list: list.name, listId, picked } });
    return picked;
  });
  await recordSelectionSubmitted(v.gallery, list, `${viewerName(v)}${v.kind === 'link' ? ` (link “${v.link.name}”)` : ''}`, n);
  return listAnswer(v, viewer.id, listId);
}
