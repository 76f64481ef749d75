// Public read of the studio's contact details (000 §3, §7).
import { endpoint, json, readJson } from '../../server/http.ts';
import { requirePermission } from '../../server/auth/guard.ts';
import { updateContactInfo } from '../../server/settings/write.ts';
import { contactInfoSchema } from '../../shared/schemas/settings.ts';
import { getContactInfo } from '../../server/settings/read.ts';
import { staffOrigin } from '../../server/audit/origin.ts';

export const GET = endpoint(async () => json(await getContactInfo()));

// Saves the contact details given and answers the saved ones (001 §7). edit:website.
export const PUT = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:website');
  const input = await readJson(ctx.request, contactInfoSchema.partial());
  return json(await updateContactInfo(input, user.id, staffOrigin(ctx)));
});
