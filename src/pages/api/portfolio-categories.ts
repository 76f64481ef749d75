// The portfolio filter's categories (issue 32): public to read (the filter shows them),
// edit:website to change.
import { endpoint, json, readJson } from '../../server/http.ts';
import { requirePermission } from '../../server/auth/guard.ts';
import { getPortfolioCategories } from '../../server/settings/read.ts';
import { updatePortfolioCategories } from '../../server/settings/write.ts';
import { portfolioCategoriesSchema } from '../../shared/schemas/settings.ts';
import { staffOrigin } from '../../server/audit/origin.ts';

export const GET = endpoint(async () => json({ categories: await getPortfolioCategories() }));

export const PUT = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:website');
  const input = await readJson(ctx.request, portfolioCategoriesSchema);
  return json({ categories: await updatePortfolioCategories(input, user.id, staffOrigin(ctx)) });
});
