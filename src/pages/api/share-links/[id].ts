import { endpoint, json, parseId, readJson } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { editorOf, revokeShareLink, updateShareLink } from '../../../server/sharing/links.ts';
import { shareLinkUpdateSchema } from '../../../shared/schemas/share.ts';

/** Edits the link (issue 32): any of the fields a new link takes, checked the same way. */
export const PATCH = endpoint(async (ctx) => {
  requirePermission(ctx, 'share:media');
  const id = parseId(ctx.params.id, 'Share link');
  const input = await readJson(ctx.request, shareLinkUpdateSchema);
  return json(await updateShareLink(ctx, id, input, editorOf(ctx)));
});

/** Revokes the link: its next request answers 404. Links are kept for their log. */
export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'share:media');
  return json(await revokeShareLink(parseId(ctx.params.id, 'Share link'), editorOf(ctx)));
});
