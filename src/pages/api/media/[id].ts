import { endpoint, json, parseId } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { deleteMedia, updateMedia } from '../../../server/media/library.ts';

/** JSON with any editable field, or multipart with a new posterFile and the same fields. */
export const PUT = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  const id = parseId(ctx.params.id, 'Media');
  return json(await updateMedia(id, ctx.request));
});

export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  await deleteMedia(parseId(ctx.params.id, 'Media'));
  return json({ message: 'Media deleted' });
});
