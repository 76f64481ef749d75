import { endpoint, parseId } from '../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../server/auth/guard.ts';
import { parseFormat, staffMarkers } from '../../../../../../server/review/markers/export.ts';

/** A version's notes as NLE markers (issue 30): ?format=edl|fcpxml|premiere|csv, &internal=1 adds internal staff notes. */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  const format = parseFormat(ctx.url.searchParams.get('format'));
  const internal = ctx.url.searchParams.get('internal') === '1';
  return staffMarkers(parseId(ctx.params.mediaId, 'Media'), parseId(ctx.params.versionId, 'Version'), format, internal);
});
