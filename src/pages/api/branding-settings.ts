// Public read of the branding: logos, favicon, company name (000 §3, §7).
import { endpoint, json, readJson } from '../../server/http.ts';
import { requirePermission } from '../../server/auth/guard.ts';
import { updateBranding } from '../../server/settings/write.ts';
import { brandingSchema } from '../../shared/schemas/settings.ts';
import { getBrandingSettings } from '../../server/settings/read.ts';
import { staffOrigin } from '../../server/audit/origin.ts';

export const GET = endpoint(async () => json(await getBrandingSettings()));

// Saves the branding and answers the saved settings (001 §7). edit:website.
export const PUT = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:website');
  const input = await readJson(ctx.request, brandingSchema);
  return json(await updateBranding(input, user.id, staffOrigin(ctx)));
});
