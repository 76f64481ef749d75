import { endpoint, json } from '../../../../server/http.ts';
import { requireClient } from '../../../../server/auth/guard.ts';
import { waitingLists } from '../../../../server/rounds/mine.ts';

/** The client's assigned items whose open review stage waits on their decision (issue 57). */
export const GET = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  const { waitingOnMe } = await waitingLists({ kind: 'client', clientUserId: client.id, clientId: client.clientId });
  return json({ waitingOnMe });
});
