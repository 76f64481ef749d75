import { endpoint, json, parseId, readJson } from '../../../../../../server/http.ts';
import { addGuestNote } from '../../../../../../server/sharing/guest-actions.ts';
import { shareNoteSchema } from '../../../../../../shared/schemas/share.ts';

export const POST = endpoint(async (ctx) => {
  const input = await readJson(ctx.request, shareNoteSchema);
  return json(await addGuestNote(ctx, parseId(ctx.params.mediaId, 'Media'), input), 201);
});
