import { endpoint, json, parseId } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { revokeShareLink } from '../../../server/sharing/links.ts';

/** Revokes the link: its next request answers 404. Links are kept for their log. */
export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'share:media');
  return json(await revokeShareLink(parseId(ctx.params.id, 'Share link')));
});
