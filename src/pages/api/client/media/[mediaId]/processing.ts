import { endpoint, json, parseId } from '../../../../../server/http.ts';
import { requireClient } from '../../../../../server/auth/guard.ts';
import { getAssignedMedia } from '../../../../../server/portal/media.ts';
import { playbackFields } from '../../../../../server/media/playback.ts';

/** The live processing state of an assigned item (404 for anything else), for the portal's progress. */
export const GET = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  const row = await getAssignedMedia(client.clientId, parseId(ctx.params.mediaId, 'Media'));
  return json({ ...playbackFields(row), processingError: null });
});
