import { endpoint, json, parseId } from '../../../../../server/http.ts';
import { runAction } from '../../../../../server/live/actions.ts';
import { liveAs, principalAs } from '../../../../../server/live/principal.ts';

/** Staff and clients in a live session (`?as=staff|client`): join, leave, state, presence, pointer, draw, control, end. */
export const POST = endpoint(async (ctx) => {
  const principal = principalAs(ctx, liveAs(ctx.url));
  return json(await runAction(principal, parseId(ctx.params.id, 'Live session'), ctx.params.action, ctx.request));
});
