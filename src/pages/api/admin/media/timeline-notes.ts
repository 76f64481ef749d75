import { endpoint, json, parseId } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { listAdminTimelineNotes } from '../../../../server/media/admin-queries.ts';

/** All timeline notes with media title and client username, by item then timestamp; ?mediaId= and ?versionId= narrow it. */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  const m = ctx.url.searchParams.get('mediaId');
  const v = ctx.url.searchParams.get('versionId');
  return json(await listAdminTimelineNotes(m ? parseId(m, 'Media') : undefined, v ? parseId(v, 'Version') : undefined));
});
