import { endpoint, json, parseId } from '../../../../../server/http.ts';
import { requirePermission } from '../../../../../server/auth/guard.ts';
import { reviewerCandidates } from '../../../../../server/rounds/rounds.ts';

/** Who a stage may name: staff who see the library and the logins of the item's clients (edit:media). */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  return json(await reviewerCandidates(parseId(ctx.params.mediaId, 'Media')));
});
