import { endpoint, json, readJson } from '../../server/http.ts';
import { requirePermission } from '../../server/auth/guard.ts';
import { listTemplates, saveTemplate } from '../../server/rounds/templates.ts';
import { templateInputSchema } from '../../shared/schemas/rounds.ts';

/** The studio's round templates (edit:media: those who start rounds). */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  return json(await listTemplates());
});

export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:media');
  return json(await saveTemplate(await readJson(ctx.request, templateInputSchema), user.id), 201);
});
