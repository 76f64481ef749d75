import { endpoint, json, readJson } from '../../../../server/http.ts';
import { unlock } from '../../../../server/sharing/access.ts';
import { shareUnlockSchema } from '../../../../shared/schemas/share.ts';

/** The link's password: 5 wrong tries per link and address (or device) per 15 minutes, 50 per link an hour, then 429 (access.ts). */
export const POST = endpoint(async (ctx) => {
  const { password } = await readJson(ctx.request, shareUnlockSchema);
  await unlock(ctx, ctx.params.token, password);
  return json({ ok: true });
});
