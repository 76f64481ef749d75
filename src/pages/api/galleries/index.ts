import { endpoint, json, readJson } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { createGallery, listGalleries } from '../../../server/proofing/galleries.ts';
import { galleryCreateSchema } from '../../../shared/schemas/proofing.ts';

/** Every gallery with its counts (view:media: galleries hold library images). */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  return json(await listGalleries());
});

/** A new gallery, with library images to start with (or none: upload into it next). */
export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:media');
  const input = await readJson(ctx.request, galleryCreateSchema);
  return json(await createGallery(input, user.id), 201);
});
