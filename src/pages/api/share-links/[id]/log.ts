import { endpoint, json, parseId } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { shareLinkLog } from '../../../../server/sharing/links.ts';

/** The link's access log, newest first. */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'share:media');
  return json(await shareLinkLog(parseId(ctx.params.id, 'Share link')));
});
