import { endpoint, json, parseId, readJson } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { publicOrigin } from '../../../../server/proxy.ts';
import { createGalleryLink, editorOf, listGalleryLinks } from '../../../../server/sharing/links.ts';
import { galleryRow } from '../../../../server/proofing/galleries.ts';
import { galleryLinkSchema } from '../../../../shared/schemas/proofing.ts';

/** The gallery's share links (copy, revoke and the log are the share links' own calls). */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'share:media');
  requirePermission(ctx, 'view:media');
  const id = parseId(ctx.params.id, 'Gallery');
  await galleryRow(id);
  return json(await listGalleryLinks(id));
});

/** A new link to the gallery; the answer carries its address (copy it again from the link's menu). */
export const POST = endpoint(async (ctx) => {
  requirePermission(ctx, 'share:media');
  requirePermission(ctx, 'view:media');
  const id = parseId(ctx.params.id, 'Gallery');
  await galleryRow(id);
  const input = await readJson(ctx.request, galleryLinkSchema);
  return json(await createGalleryLink(id, input, editorOf(ctx), publicOrigin(ctx)), 201);
});
