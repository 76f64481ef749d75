// A caption track's revisions, newest first, with who wrote each and when (issue 54 item 3).
import { endpoint, json, parseId } from '../../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../../server/auth/guard.ts';
import { trackRevisions } from '../../../../../../../server/captions/edit.ts';

export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  return json(await trackRevisions(parseId(ctx.params.mediaId, 'Media'), parseId(ctx.params.trackId, 'Caption track')));
});
