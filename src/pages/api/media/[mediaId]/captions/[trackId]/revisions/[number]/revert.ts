// Brings a caption revision back as the track's next revision (issue 54 item 3).
import { endpoint, json, parseId } from '../../../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../../../server/auth/guard.ts';
import { revertTo } from '../../../../../../../../server/captions/edit.ts';

export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:media');
  const mediaId = parseId(ctx.params.mediaId, 'Media');
  return json(await revertTo(mediaId, parseId(ctx.params.trackId, 'Caption track'), parseId(ctx.params.number, 'Revision'), user.id));
});
