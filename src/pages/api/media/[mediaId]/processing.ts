import { endpoint, json, parseId } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { mediaPlayback } from '../../../../server/media/library.ts';

/**
 * The live processing state of one item, for "Preparing preview... 42%". Progress ticks do
 * not invalidate the cached list (migration 0004), so cards poll this instead.
 */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  return json(await mediaPlayback(parseId(ctx.params.mediaId, 'Media')));
});
