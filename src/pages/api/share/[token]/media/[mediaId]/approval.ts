import { endpoint, json, parseId, readJson } from '../../../../../../server/http.ts';
import { setGuestApproval } from '../../../../../../server/sharing/guest-actions.ts';
import { shareApprovalSchema } from '../../../../../../shared/schemas/share.ts';

/** The visitor's decision on the current version, when the link allows approving. */
export const PUT = endpoint(async (ctx) => {
  const input = await readJson(ctx.request, shareApprovalSchema);
  return json(await setGuestApproval(ctx, parseId(ctx.params.mediaId, 'Media'), input));
});
