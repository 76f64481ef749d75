import { endpoint, json, parseId, readJson } from '../../../../../server/http.ts';
import { requirePermission } from '../../../../../server/auth/guard.ts';
import { staffOrigin } from '../../../../../server/audit/origin.ts';
import { decide } from '../../../../../server/rounds/rounds.ts';
import { decisionInputSchema } from '../../../../../shared/schemas/rounds.ts';

/** A staff reviewer's decision in the open stage: `{ decision, note?, version }`. */
export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'view:media');
  const input = await readJson(ctx.request, decisionInputSchema);
  return json({ round: await decide(parseId(ctx.params.mediaId, 'Media'), { kind: 'staff', userId: user.id }, input, staffOrigin(ctx), user.username) });
});
