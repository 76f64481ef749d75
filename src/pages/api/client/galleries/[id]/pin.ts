import { endpoint, json, readJson } from '../../../../../server/http.ts';
import { clientViewing } from '../../../../../server/proofing/access.ts';
import { unlockPin } from '../../../../../server/proofing/pin.ts';
import { pinSchema } from '../../../../../shared/schemas/proofing.ts';

/** The download PIN (401 wrong, 429 after too many). */
export const POST = endpoint(async (ctx) => {
  const v = await clientViewing(ctx, ctx.params.id);
  const { pin } = await readJson(ctx.request, pinSchema);
  await unlockPin(v, pin);
  return json({ ok: true });
});
