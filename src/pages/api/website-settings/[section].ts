// Sets or clears the background of one page section (001 §7). edit:website.
import { endpoint, json, readJson } from '../../../server/http.ts';
import { requirePermission } from '../../../server/auth/guard.ts';
import { updateSectionBackground } from '../../../server/settings/write.ts';
import { sectionBackgroundSchema } from '../../../shared/schemas/settings.ts';
import { staffOrigin } from '../../../server/audit/origin.ts';

export const PUT = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:website');
  const input = await readJson(ctx.request, sectionBackgroundSchema);
  return json(await updateSectionBackground(ctx.params.section ?? '', input, user.id, staffOrigin(ctx)));
});
