import { endpoint, json, parseId, readJson } from '../../../../../server/http.ts';
import { requireClient } from '../../../../../server/auth/guard.ts';
import { asClientSees } from '../../../../../server/portal/client-view.ts';
import { setApproval } from '../../../../../server/review/approval.ts';
import { approvalInputSchema } from '../../../../../shared/schemas/review.ts';
import { clientOrigin } from '../../../../../server/audit/origin.ts';

/** The client's decision on the current version: approved, or changes requested with a note. */
export const PUT = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  const input = await readJson(ctx.request, approvalInputSchema);
  const mediaId = parseId(ctx.params.mediaId, 'Media');
  const version = await setApproval(client, mediaId, input, clientOrigin(ctx));
  // The version as the client's own lists show it: their preview when watermarked, and its download (issue 30).
  const [shown] = await asClientSees(client.clientId, [version], () => (version.mimeType.startsWith('image/') ? 'image' : 'video'), () => mediaId);
  return json({ ...shown!, processingError: null });
});
