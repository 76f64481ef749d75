import { endpoint, json } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { adminMediaListJson } from '../../../server/media/list-cache.ts';
import { createMediaFromUpload } from '../../../server/media/library.ts';

/** Every item with assigned clients and review/note counts, newest first. */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  const { version, body } = await adminMediaListJson();
  const etag = `"media-${version}"`;
  const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'private, no-cache', ETag: etag };
  if (ctx.request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  return new Response(body, { headers });
});

/** Multipart upload, streamed to disk (see src/server/media/multipart.ts). */
export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'upload:media');
  return json(await createMediaFromUpload(ctx.request, user.id), 201);
});
