import { endpoint, json, parseId } from '../../../../../server/http.ts';
import { requirePermission } from '../../../../../server/auth/guard.ts';
import { assignClient, unassignClient } from '../../../../../server/media/library.ts';
import { getAdminMedia } from '../../../../../server/media/admin-queries.ts';
import { noteStaffActed } from '../../../../../server/notifications/preferences.ts';

function ids(params: Record<string, string | undefined>) {
  return { mediaId: parseId(params.mediaId, 'Media'), clientId: parseId(params.clientId, 'Client') };
}

/** Assigns the client (201; 200 when it already was). Answers with the updated item. */
export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'assign:client');
  const { mediaId, clientId } = ids(ctx.params);
  const created = await assignClient(mediaId, clientId);
  // Their first assignment: the bell asks once whether they want emails (issue 32).
  await noteStaffActed(user.id);
  return json(await getAdminMedia(mediaId), created ? 201 : 200);
});

export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'assign:client');
  const { mediaId, clientId } = ids(ctx.params);
  await unassignClient(mediaId, clientId);
  return json(await getAdminMedia(mediaId));
});
