import { endpoint, json, parseId, readJson } from '../../../../../../../server/http.ts';
import { clientViewing } from '../../../../../../../server/proofing/access.ts';
import { addStillNote } from '../../../../../../../server/proofing/comments.ts';
import { stillNoteSchema } from '../../../../../../../shared/schemas/proofing.ts';

/** A note (with an optional drawing) on the still; the studio is notified as for any note. */
export const POST = endpoint(async (ctx) => {
  const v = await clientViewing(ctx, ctx.params.id);
  const input = await readJson(ctx.request, stillNoteSchema);
  return json(await addStillNote(v, parseId(ctx.params.imageId, 'Image'), input), 201);
});
