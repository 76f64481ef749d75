// tus 1.0 resumable uploads (src/server/uploads/tus.ts); finished with POST /api/media (JSON).
import type { APIRoute } from 'astro';
import { endpoint } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { handleUploadRequest } from '../../../server/uploads/tus.ts';

export const ALL: APIRoute = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'upload:media');
  return handleUploadRequest(ctx.request, user.id);
});
