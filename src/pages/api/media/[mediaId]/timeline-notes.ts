import { endpoint, json, parseId, readJson } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { addStaffNote } from '../../../../server/review/staff-notes.ts';
import { staffNoteInputSchema } from '../../../../shared/schemas/review.ts';

/** A staff note on a version of a video (issue 29): view:media, as staff replies; `internal` hides it from clients and links. */
export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'view:media');
  const input = await readJson(ctx.request, staffNoteInputSchema);
  return json(await addStaffNote(parseId(ctx.params.mediaId, 'Media'), user, input), 201);
});
