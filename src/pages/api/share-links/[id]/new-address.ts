import { endpoint, json, parseId } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { publicOrigin } from '../../../../server/proxy.ts';
import { editorOf, newShareLinkAddress } from '../../../../server/sharing/links.ts';

/** A new address for the same link (issue 32); the old address stops opening at once. */
export const POST = endpoint(async (ctx) => {
  requirePermission(ctx, 'share:media');
  const id = parseId(ctx.params.id, 'Share link');
  return json(await newShareLinkAddress(ctx, id, editorOf(ctx), publicOrigin(ctx)));
});
