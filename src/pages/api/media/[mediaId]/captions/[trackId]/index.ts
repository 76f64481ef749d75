// One caption track (issue 54): change its language, label, kind or publication, or delete it.
import { endpoint, json, parseId, readJson } from '../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../server/auth/guard.ts';
import { deleteTrack, updateTrack } from '../../../../../../server/captions/store.ts';
import { staffTracks } from '../../../../../../server/captions/admin.ts';
import { captionUpdateSchema } from '../../../../../../shared/schemas/captions.ts';

export const PATCH = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  const mediaId = parseId(ctx.params.mediaId, 'Media');
  const trackId = parseId(ctx.params.trackId, 'Caption track');
  const versionId = await updateTrack(mediaId, trackId, await readJson(ctx.request, captionUpdateSchema));
  return json((await staffTracks(mediaId, versionId)).find((t) => t.id === trackId));
});

export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  const mediaId = parseId(ctx.params.mediaId, 'Media');
  const versionId = await deleteTrack(mediaId, parseId(ctx.params.trackId, 'Caption track'));
  return json({ tracks: await staffTracks(mediaId, versionId) });
});
