import { endpoint, json } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { listAdminMedia } from '../../../server/media/admin-queries.ts';
import { createMediaFromUpload } from '../../../server/media/library.ts';

/** Every item with assigned clients and review/note counts, newest first. */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  return json(await listAdminMedia());
});

/** Multipart upload, streamed to disk (see src/server/media/multipart.ts). */
export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'upload:media');
  return json(await createMediaFromUpload(ctx.request, user.id), 201);
});
