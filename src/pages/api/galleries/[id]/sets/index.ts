import { endpoint, json, parseId, readJson } from '../../../../../server/http.ts';
import { requirePermission } from '../../../../../server/auth/guard.ts';
import { createSet } from '../../../../../server/proofing/galleries.ts';
import { gallerySetSchema } from '../../../../../shared/schemas/proofing.ts';

export const POST = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  const id = parseId(ctx.params.id, 'Gallery');
  return json(await createSet(id, await readJson(ctx.request, gallerySetSchema)), 201);
});
