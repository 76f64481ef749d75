import { endpoint, json, parseId, readJson } from '../../../../../server/http.ts';
import { requirePermission } from '../../../../../server/auth/guard.ts';
import { remindReviewer } from '../../../../../server/rounds/rounds.ts';
import { remindInputSchema } from '../../../../../shared/schemas/rounds.ts';

/** Reminds one reviewer of the open stage (edit:media; once in 12 hours per reviewer). */
export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:media');
  const { reviewerId } = await readJson(ctx.request, remindInputSchema);
  await remindReviewer(parseId(ctx.params.mediaId, 'Media'), reviewerId, user.displayName || user.username);
  return json({ message: 'Reminder sent' });
});
