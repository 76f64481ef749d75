import { endpoint, json, parseId } from '../../../../../server/http.ts';
import { requireClient } from '../../../../../server/auth/guard.ts';
import { getAssignedMedia } from '../../../../../server/portal/media.ts';
import { playbackFields } from '../../../../../server/media/playback.ts';
import { withClientDownloads } from '../../../../../server/review/download-gate.ts';
import { forClient } from '../../../../../server/sharing/client-watermark.ts';

/** The live processing state of an assigned item (404 for anything else), for the portal's progress. */
export const GET = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  const row = await getAssignedMedia(client.clientId, parseId(ctx.params.mediaId, 'Media'));
  // A client set to watermarked previews follows its preview's progress instead.
  const [watched] = await forClient(client.clientId, [{ ...row, ...playbackFields(row) }], () => row.type);
  // While its downloads wait for approval the original does not play either (issue 30).
  const [shown] = await withClientDownloads(client.clientId, [watched!], () => row.id);
  const { processingStatus, processingProgress, playbackUrl, renditions, spriteUrl } = shown!;
  return json({ processingStatus, processingProgress, processingError: null, playbackUrl, renditions, spriteUrl });
});
