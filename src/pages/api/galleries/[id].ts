import { endpoint, json, parseId, readJson } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { deleteGallery, galleryDetail, updateGallery } from '../../../server/proofing/galleries.ts';
import { gallerySettingsSchema } from '../../../shared/schemas/proofing.ts';

export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  return json(await galleryDetail(parseId(ctx.params.id, 'Gallery')));
});

/** Settings: title, sort, cover, the download package, PIN, expiry and reminder. */
export const PATCH = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  const id = parseId(ctx.params.id, 'Gallery');
  return json(await updateGallery(id, await readJson(ctx.request, gallerySettingsSchema)));
});

/** The gallery goes (its images stay in, or come to, the library); its links are revoked. */
export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  await deleteGallery(parseId(ctx.params.id, 'Gallery'));
  return new Response(null, { status: 204 });
});
