import { endpoint, json, parseId, readJson } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { sessionsOf, startSession } from '../../../../server/live/sessions.ts';
import { staffPrincipal } from '../../../../server/live/principal.ts';
import { liveStartSchema } from '../../../../shared/schemas/live.ts';
import { staffOrigin } from '../../../../server/audit/origin.ts';

/** The item's live sessions: the open one and the summaries of ended ones (view:media). */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  return json(await sessionsOf(parseId(ctx.params.mediaId, 'Media')));
});

/** "Review live": starts a session on the item (201), or answers the open one (200). view:media. */
export const POST = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  const { versionId } = await readJson(ctx.request, liveStartSchema);
  const { created, view } = await startSession(staffPrincipal(ctx), parseId(ctx.params.mediaId, 'Media'), versionId, staffOrigin(ctx));
  return json(view, created ? 201 : 200);
});
