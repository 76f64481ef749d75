import { endpoint, json, parseId, readJson } from '../../../../../server/http.ts';
import { requirePermission } from '../../../../../server/auth/guard.ts';
import { deleteSet, updateSet } from '../../../../../server/proofing/galleries.ts';
import { gallerySetUpdateSchema } from '../../../../../shared/schemas/proofing.ts';

export const PATCH = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  const id = parseId(ctx.params.id, 'Gallery');
  const setId = parseId(ctx.params.setId, 'Set');
  return json(await updateSet(id, setId, await readJson(ctx.request, gallerySetUpdateSchema)));
});

/** The set goes; its images stay in the gallery, in no set. */
export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  await deleteSet(parseId(ctx.params.id, 'Gallery'), parseId(ctx.params.setId, 'Set'));
  return new Response(null, { status: 204 });
});
