import { endpoint, json, parseId, readJson } from '../../../../../../server/http.ts';
import { clientViewing } from '../../../../../../server/proofing/access.ts';
import { setMark } from '../../../../../../server/proofing/picking.ts';
import { markSchema } from '../../../../../../shared/schemas/proofing.ts';

/** Heart and stars (1-5; 0 clears) of one image. */
export const PUT = endpoint(async (ctx) => {
  const v = await clientViewing(ctx, ctx.params.id);
  const input = await readJson(ctx.request, markSchema);
  return json(await setMark(v, parseId(ctx.params.imageId, 'Image'), input));
});
