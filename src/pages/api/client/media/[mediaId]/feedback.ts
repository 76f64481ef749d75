import { endpoint, json, parseId, readJson } from '../../../../../server/http.ts';
import { requireClient } from '../../../../../server/auth/guard.ts';
import { feedbackInputSchema } from '../../../../../shared/schemas/portal.ts';
import { assertSameMedia } from '../../../../../server/portal/media.ts';
import { addFeedback } from '../../../../../server/portal/feedback.ts';

export const POST = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  const mediaId = parseId(ctx.params.mediaId, 'Media');
  const input = await readJson(ctx.request, feedbackInputSchema);
  assertSameMedia(mediaId, input.mediaId);
  return json(await addFeedback(client, input), 201);
});
