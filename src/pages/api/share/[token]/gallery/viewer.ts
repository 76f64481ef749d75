import { endpoint, json, readJson } from '../../../../../server/http.ts';
import { linkViewing, setGuestViewer } from '../../../../../server/proofing/access.ts';
import { viewerNameSchema } from '../../../../../shared/schemas/proofing.ts';

/** The guest's name (shown with their picks and notes) and, optionally, an address for the expiry reminder. */
export const PUT = endpoint(async (ctx) => {
  const v = await linkViewing(ctx, ctx.params.token);
  const { name, email } = await readJson(ctx.request, viewerNameSchema);
  return json(await setGuestViewer(v, name, email));
});
