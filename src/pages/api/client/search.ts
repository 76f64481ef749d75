// A client login's search (issue 54, item 5): the captions and notes of the items assigned to
// its client that the portal shows it.
import { endpoint, json } from '../../../server/http.ts';
import { requireClient } from '../../../server/auth/guard.ts';
import { searchLibrary } from '../../../server/search/query.ts';
import { searchQueryFrom, type SearchAnswer } from '../../../shared/schemas/search.ts';

export const GET = endpoint(async (ctx) => {
  const client = requireClient(ctx);
  const { q, limit } = searchQueryFrom(ctx.url.searchParams);
  return json({ hits: await searchLibrary(q, { kind: 'client', clientId: client.clientId, clientUserId: client.id }, limit) } satisfies SearchAnswer);
});
