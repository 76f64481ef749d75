// An open-captions rendition of a track (issue 54), made by the job queue.
import { endpoint, json, parseId } from '../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../server/auth/guard.ts';
import { queueBurn } from '../../../../../../server/captions/admin.ts';

export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:media');
  return json(await queueBurn(parseId(ctx.params.mediaId, 'Media'), parseId(ctx.params.trackId, 'Caption track'), user.id), 202);
});
