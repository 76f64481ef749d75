import { endpoint, json, parseId, readJson } from '../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../server/auth/guard.ts';
import { addStaffReply } from '../../../../../../server/review/replies.ts';
import { staffReplyInputSchema } from '../../../../../../shared/schemas/review.ts';

/** Staff answer a client's feedback, or with `source: "link"` a share-link visitor's (one level of replies). */
export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'view:media');
  const { text, source } = await readJson(ctx.request, staffReplyInputSchema);
  return json(await addStaffReply(source === 'link' ? 'share' : 'feedback', parseId(ctx.params.id, 'Feedback'), user, text), 201);
});
