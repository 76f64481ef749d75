import { endpoint, json, parseId, readJson } from '../../../../../server/http.ts';
import { requireClient } from '../../../../../server/auth/guard.ts';
import { setApproval } from '../../../../../server/review/approval.ts';
import { approvalInputSchema } from '../../../../../shared/schemas/review.ts';

/** The client's decision on the current version: approved, or changes requested with a note. */
export const PUT = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  const input = await readJson(ctx.request, approvalInputSchema);
  const version = await setApproval(client, parseId(ctx.params.mediaId, 'Media'), input);
  return json({ ...version, processingError: null });
});
