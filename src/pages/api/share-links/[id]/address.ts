import { endpoint, json, parseId } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { publicOrigin } from '../../../../server/proxy.ts';
import { editorOf, shareLinkAddress } from '../../../../server/sharing/links.ts';

/**
 * The link's address again (issue 32): an explicit call (POST, so no cache or prefetch ever
 * holds it), written to the link's access log. 409 for links made before addresses were kept.
 */
export const POST = endpoint(async (ctx) => {
  requirePermission(ctx, 'share:media');
  const id = parseId(ctx.params.id, 'Share link');
  return json(await shareLinkAddress(ctx, id, editorOf(ctx), publicOrigin(ctx)));
});
