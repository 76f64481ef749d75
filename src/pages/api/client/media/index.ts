import { endpoint, json } from '../../../../server/http.ts';
import { requireClient } from '../../../../server/auth/guard.ts';
import { listClientMedia } from '../../../../server/portal/media.ts';

export const GET = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  return json(await listClientMedia(client.clientId));
});
