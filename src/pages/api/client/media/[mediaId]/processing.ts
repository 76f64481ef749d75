import { endpoint, json, parseId } from '../../../../../server/http.ts';
import { requireClient } from '../../../../../server/auth/guard.ts';
import { getAssignedMedia } from '../../../../../server/portal/media.ts';
import { playbackFields } from '../../../../../server/media/playback.ts';
import { asClientSees } from '../../../../../server/portal/client-view.ts';

/** The live processing state of an assigned item (404 for anything else), for the portal's progress. */
export const GET = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  const row = await getAssignedMedia(client.clientId, parseId(ctx.params.mediaId, 'Media'));
  // A client set to watermarked previews follows its preview's progress instead, and one whose
  // downloads wait for approval its gate's (issues 30 and 40).
  const [shown] = await asClientSees(client.clientId, [{ ...row, ...playbackFields(row) }], () => row.type, () => row.id);
  const { processingStatus, processingProgress, playbackUrl, renditions, spriteUrl } = shown!;
  return json({ processingStatus, processingProgress, processingError: null, playbackUrl, renditions, spriteUrl });
});
