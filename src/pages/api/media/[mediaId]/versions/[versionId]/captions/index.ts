// A version's caption tracks (issue 54): staff list them and upload a file (multipart).
import { endpoint, json, parseId } from '../../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../../server/auth/guard.ts';
import { staffTracks, uploadCaption } from '../../../../../../../server/captions/admin.ts';

export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  return json(await staffTracks(parseId(ctx.params.mediaId, 'Media'), parseId(ctx.params.versionId, 'Version')));
});

export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:media');
  return json(await uploadCaption(ctx.request, parseId(ctx.params.mediaId, 'Media'), parseId(ctx.params.versionId, 'Version'), user.id), 201);
});
