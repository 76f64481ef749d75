import { endpoint, json, parseId } from '../../../../../server/http.ts';
import { requirePermission } from '../../../../../server/auth/guard.ts';
import { deleteVersion } from '../../../../../server/review/versions.ts';

/** Deletes one version with its files, feedback and notes; the only version stays (409). */
export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  return json(await deleteVersion(parseId(ctx.params.mediaId, 'Media'), parseId(ctx.params.versionId, 'Version')));
});
