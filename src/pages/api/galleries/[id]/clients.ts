import { endpoint, json, parseId, readJson } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { setGalleryClients } from '../../../../server/proofing/galleries.ts';
import { galleryClientsSchema } from '../../../../shared/schemas/proofing.ts';

/** The clients who see the gallery in their portal (those added now are notified). */
export const PUT = endpoint(async (ctx) => {
  requirePermission(ctx, 'assign:client');
  const id = parseId(ctx.params.id, 'Gallery');
  const { clientIds } = await readJson(ctx.request, galleryClientsSchema);
  return json(await setGalleryClients(id, clientIds));
});
