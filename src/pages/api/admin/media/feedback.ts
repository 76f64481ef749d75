import { endpoint, json, parseId } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { listAdminFeedback } from '../../../../server/media/admin-queries.ts';

/** All client feedback (newest first) with media title and client username; ?mediaId= and ?versionId= narrow it. */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  const m = ctx.url.searchParams.get('mediaId');
  const v = ctx.url.searchParams.get('versionId');
  return json(await listAdminFeedback(m ? parseId(m, 'Media') : undefined, v ? parseId(v, 'Version') : undefined));
});
