import { endpoint, json, parseId } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { mentionable } from '../../../../server/rounds/mentions.ts';

/** Who staff may @mention in a note on this item (issue 57): library staff and the item's client logins. */
export const GET = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'view:media');
  return json(await mentionable(parseId(ctx.params.mediaId, 'Media'), { kind: 'staff', userId: user.id }));
});
