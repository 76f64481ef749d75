import { endpoint, json, parseId } from '../../../../../server/http.ts';
import { requirePermission } from '../../../../../server/auth/guard.ts';
import { listSelections } from '../../../../../server/proofing/selections.ts';

/** Every viewer's lists with their counts and state. */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  return json(await listSelections(parseId(ctx.params.id, 'Gallery')));
});
