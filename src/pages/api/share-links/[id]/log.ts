import { endpoint, json, parseId } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { shareLinkLog } from '../../../../server/sharing/links.ts';
import { shareLogQuery } from '../../../../shared/schemas/share.ts';

/** The link's access log, newest first, a page at a time (`?cursor=` from the page before). */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'share:media');
  const { cursor } = shareLogQuery.parse({ cursor: ctx.url.searchParams.get('cursor') ?? undefined });
  return json(await shareLinkLog(parseId(ctx.params.id, 'Share link'), ctx.locals.permissions, cursor ?? null));
});
