import { endpoint, json, parseId } from '../../../../../../../server/http.ts';
import { clientViewing } from '../../../../../../../server/proofing/access.ts';
import { submit } from '../../../../../../../server/proofing/picking.ts';

/** Sends the list to the studio and locks it (409 outside its bounds or when sent already). */
export const POST = endpoint(async (ctx) => {
  const v = await clientViewing(ctx, ctx.params.id);
  return json(await submit(v, parseId(ctx.params.listId, 'Selection list')));
});
