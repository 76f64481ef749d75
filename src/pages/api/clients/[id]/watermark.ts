import { endpoint, json, parseId, readJson } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { setClientWatermark } from '../../../../server/sharing/client-watermark.ts';
import { clientWatermarkSchema } from '../../../../shared/schemas/clients.ts';

/** Switches the client to watermarked previews only (or back); previews are made in the background. */
export const PUT = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:clients');
  const { watermark } = await readJson(ctx.request, clientWatermarkSchema);
  return json({ watermark: await setClientWatermark(parseId(ctx.params.id, 'Client'), watermark, user.id) });
});
