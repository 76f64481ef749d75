import { endpoint, json, parseId, readJson } from '../../../../../../server/http.ts';
import { addGuestFeedback } from '../../../../../../server/sharing/guest-actions.ts';
import { shareFeedbackSchema } from '../../../../../../shared/schemas/share.ts';

export const POST = endpoint(async (ctx) => {
  const input = await readJson(ctx.request, shareFeedbackSchema);
  return json(await addGuestFeedback(ctx, parseId(ctx.params.mediaId, 'Media'), input), 201);
});
