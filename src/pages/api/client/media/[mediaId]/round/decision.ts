import { endpoint, json, parseId, readJson } from '../../../../../../server/http.ts';
import { requireClient } from '../../../../../../server/auth/guard.ts';
import { clientOrigin } from '../../../../../../server/audit/origin.ts';
import { clientActor } from '../../../../../../server/notifications/actors.ts';
import { getAssignedMedia } from '../../../../../../server/portal/media.ts';
import { decide } from '../../../../../../server/rounds/rounds.ts';
import { decisionInputSchema } from '../../../../../../shared/schemas/rounds.ts';

/** A client reviewer's decision in the open stage: `{ decision, note?, version }`. */
export const POST = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  const input = await readJson(ctx.request, decisionInputSchema);
  const item = await getAssignedMedia(client.clientId, parseId(ctx.params.mediaId, 'Media'));
  return json({ round: await decide(item.id, { kind: 'client', clientUserId: client.id, clientId: client.clientId }, input, clientOrigin(ctx), clientActor(client)) });
});
