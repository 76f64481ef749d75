// "Carry the previous version's captions over" (issue 54).
import { endpoint, json, parseId } from '../../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../../server/auth/guard.ts';
import { carryOver } from '../../../../../../../server/captions/store.ts';
import { staffTracks } from '../../../../../../../server/captions/admin.ts';

export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:media');
  const mediaId = parseId(ctx.params.mediaId, 'Media');
  const versionId = parseId(ctx.params.versionId, 'Version');
  const { carried, from } = await carryOver(mediaId, versionId, user.id);
  return json({ carried, from, tracks: await staffTracks(mediaId, versionId) });
});
