import { endpoint, json } from '../../../server/http.ts';
import { requireAnyPermission, requirePermission } from '../../../server/auth/guard.ts';
import { noteStaffActed } from '../../../server/notifications/preferences.ts';
import { adminMediaList } from '../../../server/media/list-cache.ts';
import { createMediaFromUpload } from '../../../server/media/library.ts';
import { finishUpload } from '../../../server/uploads/finish.ts';

/** Every item with assigned clients and review/note counts, newest first. */
export const GET = endpoint(async (ctx) => {
  // The website-customization media pickers read the library too, and that screen is guarded
  // by edit:website alone.
  requireAnyPermission(ctx, ['view:media', 'edit:website']);
  const list = await adminMediaList();
  const etag = `"media-${list.version}"`;
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'private, no-store',
    ETag: etag,
    Vary: 'Accept-Encoding',
  };
  if (ctx.request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  if (/\bgzip\b/.test(ctx.request.headers.get('accept-encoding') ?? '')) {
    headers['Content-Encoding'] = 'gzip';
    return new Response(list.gzipped() as BodyInit, { headers });
  }
  return new Response(list.body as BodyInit, { headers });
});

/**
 * Multipart upload, streamed to disk (see src/server/media/multipart.ts), or JSON
 * { uploadId, ...fields } finishing a resumable upload (src/server/uploads/finish.ts).
 */
export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'upload:media');
  const uploader = { id: user.id, permissions: ctx.locals.permissions };
  const isJson = /^application\/json\b/i.test(ctx.request.headers.get('content-type') ?? '');
  const item = isJson ? await finishUpload(ctx.request, uploader) : await createMediaFromUpload(ctx.request, uploader);
  // Their first upload: the bell asks once whether they want emails (issue 32).
  await noteStaffActed(user.id);
  return json(item, 201);
});
