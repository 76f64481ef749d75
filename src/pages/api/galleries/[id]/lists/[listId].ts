import { endpoint, json, parseId, readJson } from '../../../../../server/http.ts';
import { requirePermission } from '../../../../../server/auth/guard.ts';
import { deleteList, updateList } from '../../../../../server/proofing/galleries.ts';
import { selectionListUpdateSchema } from '../../../../../shared/schemas/proofing.ts';

export const PATCH = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  const id = parseId(ctx.params.id, 'Gallery');
  const listId = parseId(ctx.params.listId, 'Selection list');
  return json(await updateList(id, listId, await readJson(ctx.request, selectionListUpdateSchema)));
});

/** The list goes, with every viewer's picks in it. */
export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  await deleteList(parseId(ctx.params.id, 'Gallery'), parseId(ctx.params.listId, 'Selection list'));
  return new Response(null, { status: 204 });
});
