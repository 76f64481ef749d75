import { endpoint, json, parseId } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { galleryDownloadLog } from '../../../../server/proofing/downloads.ts';
import { galleryRow } from '../../../../server/proofing/galleries.ts';

/** The gallery's downloads, newest first: who, through what, which file at which size. */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  const id = parseId(ctx.params.id, 'Gallery');
  await galleryRow(id);
  return json(await galleryDownloadLog(id));
});
