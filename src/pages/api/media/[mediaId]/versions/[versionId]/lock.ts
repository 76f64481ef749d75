import { endpoint, json, parseId, readJson } from '../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../server/auth/guard.ts';
import { setApprovalLock } from '../../../../../../server/review/versions.ts';
import { approvalLockSchema } from '../../../../../../shared/schemas/review.ts';

/** Locks (or unlocks) the client's decision on a version. */
export const PUT = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:media');
  const { locked } = await readJson(ctx.request, approvalLockSchema);
  return json(await setApprovalLock(parseId(ctx.params.mediaId, 'Media'), parseId(ctx.params.versionId, 'Version'), locked, user.id));
});
