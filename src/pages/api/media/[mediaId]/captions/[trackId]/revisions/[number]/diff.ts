// A caption revision against the one before it (issue 54 item 3).
import { endpoint, json, parseId } from '../../../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../../../server/auth/guard.ts';
import { revisionDiff } from '../../../../../../../../server/captions/edit.ts';

export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  return json(await revisionDiff(parseId(ctx.params.mediaId, 'Media'), parseId(ctx.params.trackId, 'Caption track'), parseId(ctx.params.number, 'Revision')));
});
