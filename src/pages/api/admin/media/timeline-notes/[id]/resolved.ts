import { endpoint, json, parseId, readJson } from '../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../server/auth/guard.ts';
import { setNoteResolved } from '../../../../../../server/review/replies.ts';
import { resolveInputSchema } from '../../../../../../shared/schemas/review.ts';

/** Marks a timeline note resolved, or opens it again (`source: "link"`: a share-link visitor's note). */
export const PUT = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:media');
  const { resolved, source } = await readJson(ctx.request, resolveInputSchema);
  return json(await setNoteResolved(parseId(ctx.params.id, 'Timeline note'), resolved, user.id, source));
});
