import { endpoint, json, parseId } from '../../../../../../server/http.ts';
import { runAction } from '../../../../../../server/live/actions.ts';
import { linkPrincipal } from '../../../../../../server/live/principal.ts';

/** A visitor's part in a live session: join, leave, presence, pointer, drawing (and control when handed it). */
export const POST = endpoint(async (ctx) => {
  const principal = await linkPrincipal(ctx, ctx.params.token);
  return json(await runAction(principal, parseId(ctx.params.id, 'Live session'), ctx.params.action, ctx.request));
});
