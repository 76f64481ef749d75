import { endpoint, json, parseId, readJson } from '../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../server/auth/guard.ts';
import { addStaffReply } from '../../../../../../server/review/replies.ts';
import { staffNoteReplyInputSchema } from '../../../../../../shared/schemas/review.ts';

/** Staff answer a client's or staff note, or with `source: "link"` a share-link visitor's note (one level of replies). */
export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'view:media');
  const { text, source, mentions } = await readJson(ctx.request, staffNoteReplyInputSchema);
  return json(await addStaffReply(source === 'link' ? 'share' : 'note', parseId(ctx.params.id, 'Timeline note'), user, text, mentions), 201);
});
