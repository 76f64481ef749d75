import { endpoint, json, parseId, readJson } from '../../../../../server/http.ts';
import { requireClient } from '../../../../../server/auth/guard.ts';
import { timelineNoteInputSchema } from '../../../../../shared/schemas/portal.ts';
import { assertSameMedia } from '../../../../../server/portal/media.ts';
import { addTimelineNote } from '../../../../../server/portal/timeline-notes.ts';

export const POST = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  const mediaId = parseId(ctx.params.mediaId, 'Media');
  const input = await readJson(ctx.request, timelineNoteInputSchema);
  assertSameMedia(mediaId, input.mediaId);
  return json(await addTimelineNote(client, input), 201);
});
