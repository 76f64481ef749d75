import { endpoint, json } from '../../../../server/http.ts';
import { requireClient } from '../../../../server/auth/guard.ts';
import { listOwnTimelineNotes } from '../../../../server/portal/timeline-notes.ts';

export const GET = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  return json(await listOwnTimelineNotes(client.id, client.clientId));
});
