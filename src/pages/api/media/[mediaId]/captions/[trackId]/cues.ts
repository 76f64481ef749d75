// A track's cues in the browser editor (issue 54 item 3): open them, and save the whole track as
// edited as its next revision.
import { endpoint, json, parseId, readJson } from '../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../server/auth/guard.ts';
import { editorState, saveEdit } from '../../../../../../server/captions/edit.ts';
import { CAPTION_EDIT_MAX_BYTES, captionEditSchema } from '../../../../../../shared/schemas/captions.ts';

export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  return json(await editorState(parseId(ctx.params.mediaId, 'Media'), parseId(ctx.params.trackId, 'Caption track')));
});

export const PUT = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:media');
  const mediaId = parseId(ctx.params.mediaId, 'Media');
  const trackId = parseId(ctx.params.trackId, 'Caption track');
  return json(await saveEdit(mediaId, trackId, await readJson(ctx.request, captionEditSchema, CAPTION_EDIT_MAX_BYTES), user.id));
});
