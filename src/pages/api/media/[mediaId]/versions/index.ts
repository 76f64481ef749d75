import { endpoint, json, notFound, parseId, readJson } from '../../../../../server/http.ts';
import { requirePermission } from '../../../../../server/auth/guard.ts';
import { noteStaffActed } from '../../../../../server/notifications/preferences.ts';
import { getMediaById } from '../../../../../server/media/queries.ts';
import { addVersion, listVersions } from '../../../../../server/review/versions.ts';
import { versionFinishSchema } from '../../../../../shared/schemas/review.ts';

/** Every version of the item, oldest first (issue 16). */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  const item = await getMediaById(parseId(ctx.params.mediaId, 'Media'));
  if (!item) throw notFound('Media not found');
  return json(await listVersions(item));
});

/** Finishes a resumable upload as the item's next (and current) version. */
export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'upload:media');
  const mediaId = parseId(ctx.params.mediaId, 'Media');
  const { uploadId } = await readJson(ctx.request, versionFinishSchema);
  const added = await addVersion(mediaId, uploadId, { id: user.id, permissions: ctx.locals.permissions });
  await noteStaffActed(user.id); // the bell asks once whether they want emails (issue 32)
  return json(added, 201);
});
