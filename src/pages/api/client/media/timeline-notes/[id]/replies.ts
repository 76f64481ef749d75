import { endpoint, json, parseId, readJson } from '../../../../../../server/http.ts';
import { requireClient } from '../../../../../../server/auth/guard.ts';
import { addClientReply } from '../../../../../../server/review/replies.ts';
import { noteReplyInputSchema } from '../../../../../../shared/schemas/review.ts';

/** The client answers back under their own note. */
export const POST = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  const { text, mentions } = await readJson(ctx.request, noteReplyInputSchema);
  return json(await addClientReply('note', parseId(ctx.params.id, 'Timeline note'), client, text, mentions), 201);
});
