import { endpoint, json, readJson } from '../../../../server/http.ts';
import { requireVisit, setGuestName } from '../../../../server/sharing/access.ts';
import { shareGuestNameSchema } from '../../../../shared/schemas/share.ts';

/** The guest name comments are written under, typed once per visit. */
export const PUT = endpoint(async (ctx) => {
  const { name } = await readJson(ctx.request, shareGuestNameSchema);
  const { visit } = await requireVisit(ctx, ctx.params.token);
  await setGuestName(visit, name);
  return json({ name });
});
