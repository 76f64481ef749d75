import { endpoint, json, parseId } from '../../../../../server/http.ts';
import { requireClient } from '../../../../../server/auth/guard.ts';
import { getAssignedMedia } from '../../../../../server/portal/media.ts';
import { listVersions } from '../../../../../server/review/versions.ts';
import { asClientSees } from '../../../../../server/portal/client-view.ts';

/** Every version of an item assigned to the client (404 otherwise), with their own counts. */
export const GET = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  const item = await getAssignedMedia(client.clientId, parseId(ctx.params.mediaId, 'Media'));
  const versions = await asClientSees(client.clientId, await listVersions(item, client.id), () => item.type, () => item.id);
  // Clients are told a preview is being prepared, never ffmpeg's reasons.
  return json(versions.map((v) => ({ ...v, processingError: null })));
});
