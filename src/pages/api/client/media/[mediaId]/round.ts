import { endpoint, json, parseId } from '../../../../../server/http.ts';
import { requireClient } from '../../../../../server/auth/guard.ts';
import { getAssignedMedia } from '../../../../../server/portal/media.ts';
import { noteOpened, roundBoard } from '../../../../../server/rounds/rounds.ts';

/** The review round of an item assigned to the client, as they may see it (the studio's people unnamed). */
export const GET = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  const item = await getAssignedMedia(client.clientId, parseId(ctx.params.mediaId, 'Media'));
  const viewer = { kind: 'client' as const, clientUserId: client.id, clientId: client.clientId };
  await noteOpened(item.id, viewer);
  return json({ round: await roundBoard(item.id, viewer) });
});
