import { endpoint, json, parseId } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { linkComments } from '../../../../server/sharing/viewer.ts';

/** Feedback and timeline notes left through share links on this item, with each link's name. */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  return json(await linkComments(null, [parseId(ctx.params.mediaId, 'Media')]));
});
