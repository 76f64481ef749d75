import { endpoint, json, parseId } from '../../../../../../../../server/http.ts';
import { linkViewing } from '../../../../../../../../server/proofing/access.ts';
import { pick } from '../../../../../../../../server/proofing/picking.ts';

/** Picks the image into the list (409 at the list's maximum or once it is submitted). */
export const PUT = endpoint(async (ctx) => {
  const v = await linkViewing(ctx, ctx.params.token);
  return json(await pick(v, parseId(ctx.params.listId, 'Selection list'), parseId(ctx.params.imageId, 'Image'), true));
});

/** Takes the image out of the list (409 once it is submitted). */
export const DELETE = endpoint(async (ctx) => {
  const v = await linkViewing(ctx, ctx.params.token);
  return json(await pick(v, parseId(ctx.params.listId, 'Selection list'), parseId(ctx.params.imageId, 'Image'), false));
});
