import { endpoint, json, parseId } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { reprocessMedia } from '../../../../server/media/library.ts';

/** Queues a video's review proxies again (Retry after a failure, or after an ffmpeg upgrade). */
export const POST = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  return json(await reprocessMedia(parseId(ctx.params.mediaId, 'Media')), 202);
});
