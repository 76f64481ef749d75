import { endpoint, json } from '../../../../server/http.ts';
import { requireClient } from '../../../../server/auth/guard.ts';
import { listOwnFeedback } from '../../../../server/portal/feedback.ts';

export const GET = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  return json(await listOwnFeedback(client.id));
});
