import { endpoint, json, parseId } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { deleteTemplate } from '../../../server/rounds/templates.ts';

export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  await deleteTemplate(parseId(ctx.params.id, 'Template'));
  return json({ message: 'Template deleted' });
});
