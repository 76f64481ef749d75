import { endpoint, json, parseId } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { listAdminTimelineNotes } from '../../../../server/media/admin-queries.ts';

/** All timeline notes with media title and client username, by item then timestamp; ?mediaId= narrows it. */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  const m = ctx.url.searchParams.get('mediaId');
  return json(await listAdminTimelineNotes(m ? parseId(m, 'Media') : undefined));
});
