import { endpoint, json, parseId } from '../../../../../server/http.ts';
import { requireClient } from '../../../../../server/auth/guard.ts';
import { getAssignedMedia } from '../../../../../server/portal/media.ts';
import { mentionable } from '../../../../../server/rounds/mentions.ts';

/** Who a client may @mention on an item assigned to them (issue 57): the other logins of their own client, nobody else. */
export const GET = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  const item = await getAssignedMedia(client.clientId, parseId(ctx.params.mediaId, 'Media'));
  return json(await mentionable(item.id, { kind: 'client', clientUserId: client.id, clientId: client.clientId }));
});
