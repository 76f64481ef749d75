import { endpoint, json, parseId, readJson } from '../../../../../server/http.ts';
import { requirePermission } from '../../../../../server/auth/guard.ts';
import { createList } from '../../../../../server/proofing/galleries.ts';
import { selectionListSchema } from '../../../../../shared/schemas/proofing.ts';

/** A selection list ("Pick 30 for retouching") with its minimum and maximum. */
export const POST = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  const id = parseId(ctx.params.id, 'Gallery');
  return json(await createList(id, await readJson(ctx.request, selectionListSchema)), 201);
});
