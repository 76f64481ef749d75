import { endpoint, json } from '../../../../server/http.ts';
import { requireClient } from '../../../../server/auth/guard.ts';
import { clientGalleries } from '../../../../server/proofing/galleries.ts';

/** The galleries shared with the client's account. */
export const GET = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  return json(await clientGalleries(client.clientId));
});
