import { endpoint, json, parseId, readJson } from '../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../server/auth/guard.ts';
import { reopenSelection } from '../../../../../../server/proofing/selections.ts';
import { reopenSchema } from '../../../../../../shared/schemas/proofing.ts';

/** Opens a submitted list again, with a note its viewer sees. */
export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:media');
  const id = parseId(ctx.params.id, 'Gallery');
  const selectionId = parseId(ctx.params.selectionId, 'Selection');
  const { note } = await readJson(ctx.request, reopenSchema);
  return json(await reopenSelection(id, selectionId, note, user.id));
});
