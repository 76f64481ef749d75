import { endpoint, json, parseId, readJson } from '../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../server/auth/guard.ts';
import { addStaffReply } from '../../../../../../server/review/replies.ts';
import { replyInputSchema } from '../../../../../../shared/schemas/review.ts';

/** Staff answer a client's feedback (one level of replies). */
export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'view:media');
  const { text } = await readJson(ctx.request, replyInputSchema);
  return json(await addStaffReply('feedback', parseId(ctx.params.id, 'Feedback'), user, text), 201);
});
