import { endpoint, json, parseId, readJson } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { addImages, moveImages, removeImages } from '../../../../server/proofing/galleries.ts';
import { galleryImagesAddSchema, galleryImagesMoveSchema, galleryImagesRemoveSchema } from '../../../../shared/schemas/proofing.ts';

/** Adds library images (into a set, or none), after the last one. */
export const POST = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  const id = parseId(ctx.params.id, 'Gallery');
  const { mediaIds, setId } = await readJson(ctx.request, galleryImagesAddSchema);
  return json(await addImages(id, mediaIds, setId), 201);
});

/** Moves images into a set (or out of every set: null). */
export const PATCH = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  const id = parseId(ctx.params.id, 'Gallery');
  const { imageIds, setId } = await readJson(ctx.request, galleryImagesMoveSchema);
  await moveImages(id, imageIds, setId);
  return json({ moved: imageIds.length });
});

/** Takes images out of the gallery; the library keeps them (and gets the stills uploaded into it, issue 53). */
export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  const id = parseId(ctx.params.id, 'Gallery');
  const { imageIds } = await readJson(ctx.request, galleryImagesRemoveSchema);
  await removeImages(id, imageIds);
  return json({ removed: imageIds.length });
});
