import { endpoint, json, parseId, readJson } from '../../../../../../../server/http.ts';
import { linkViewing } from '../../../../../../../server/proofing/access.ts';
import { addStillNote } from '../../../../../../../server/proofing/comments.ts';
import { stillNoteSchema } from '../../../../../../../shared/schemas/proofing.ts';

/** A note (with an optional drawing) on the still; the studio is notified as for any note. */
export const POST = endpoint(async (ctx) => {
  const v = await linkViewing(ctx, ctx.params.token);
  const input = await readJson(ctx.request, stillNoteSchema);
  return json(await addStillNote(v, parseId(ctx.params.imageId, 'Image'), input), 201);
});
