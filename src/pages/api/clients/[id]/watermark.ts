import { endpoint, json, parseId, readJson } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { getClientWatermark, setClientWatermark } from '../../../../server/sharing/client-watermark.ts';
import { clientWatermarkSchema } from '../../../../shared/schemas/clients.ts';

/** Whether the client sees only watermarked previews, and how the text looks. */
export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:clients');
  return json(await getClientWatermark(parseId(ctx.params.id, 'Client')));
});

/** Switches the client to watermarked previews only (or back), or changes the text; previews are made in the background. */
export const PUT = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:clients');
  const input = await readJson(ctx.request, clientWatermarkSchema);
  return json(await setClientWatermark(parseId(ctx.params.id, 'Client'), input, user.id));
});
