import { endpoint, json, parseId, readJson } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { reorderImages } from '../../../../server/proofing/galleries.ts';
import { galleryOrderSchema } from '../../../../shared/schemas/proofing.ts';

/** The manual order (every image, in order); the gallery's sort becomes "manual". */
export const PUT = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  const id = parseId(ctx.params.id, 'Gallery');
  const { imageIds } = await readJson(ctx.request, galleryOrderSchema);
  await reorderImages(id, imageIds);
  return json({ ordered: imageIds.length });
});
