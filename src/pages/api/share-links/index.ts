import { endpoint, json, readJson } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { publicOrigin } from '../../../server/proxy.ts';
import { createShareLink, editorOf, listShareLinks } from '../../../server/sharing/links.ts';
import { shareLinkCreateSchema } from '../../../shared/schemas/share.ts';

/** Every share link with its items and use (share:media), but only links holding nothing the reader may not see. */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'share:media');
  return json(await listShareLinks(ctx.locals.permissions));
});

/** A new link; the answer carries its address, which is never shown again. */
export const POST = endpoint(async (ctx) => {
  requirePermission(ctx, 'share:media');
  const input = await readJson(ctx.request, shareLinkCreateSchema);
  return json(await createShareLink(input, editorOf(ctx), publicOrigin(ctx)), 201);
});
