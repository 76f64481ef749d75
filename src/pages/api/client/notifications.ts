import { endpoint, json, readJson } from '../../../server/http.ts';
import { requireClient } from '../../../server/auth/guard.ts';
import { notifyModeSchema } from '../../../shared/schemas/notifications.ts';
import { clientMode, setClientMode } from '../../../server/notifications/preferences.ts';

/** The signed-in client login's own email notification mode and the address the emails go to. */
export const GET = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  return json(await clientMode(client.id));
});

export const PUT = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  const { mode } = await readJson(ctx.request, notifyModeSchema);
  return json(await setClientMode(client.id, mode));
});
