import { endpoint, json, parseId, readJson } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { noteStaffActed } from '../../../../server/notifications/preferences.ts';
import { finishIntoGallery } from '../../../../server/proofing/uploads.ts';
import { galleryUploadFinishSchema } from '../../../../shared/schemas/proofing.ts';

/** Finishes a resumable upload (the tray) as a library image that joins the gallery. */
export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'upload:media');
  requirePermission(ctx, 'edit:media');
  const id = parseId(ctx.params.id, 'Gallery');
  const { uploadId, setId } = await readJson(ctx.request, galleryUploadFinishSchema);
  const item = await finishIntoGallery(id, uploadId, setId, user.id);
  await noteStaffActed(user.id);
  return json(item, 201);
});
