// Public read of the search engine settings, image urls included (000 §3, §7).
import { endpoint, json, readJson } from '../../server/http.ts';
import { requirePermission } from '../../server/auth/guard.ts';
import { updateSeo } from '../../server/settings/write.ts';
import { seoSchema } from '../../shared/schemas/settings.ts';
import { getSeoSettings } from '../../server/settings/read.ts';
import { staffOrigin } from '../../server/audit/origin.ts';

export const GET = endpoint(async () => json(await getSeoSettings()));

// Saves the SEO fields given (absent ones keep their value) and answers the saved settings.
export const PUT = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:website');
  const input = await readJson(ctx.request, seoSchema.partial());
  return json(await updateSeo(input, user.id, staffOrigin(ctx)));
});
