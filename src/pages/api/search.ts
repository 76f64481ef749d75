// Search across every caption and note of the library (issue 54, item 5; view:media).
import { endpoint, json } from '../../server/http.ts';
import { requirePermission } from '../../server/auth/guard.ts';
import { searchLibrary } from '../../server/search/query.ts';
import { searchQueryFrom, type SearchAnswer } from '../../shared/schemas/search.ts';

export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:media');
  const { q, limit } = searchQueryFrom(ctx.url.searchParams);
  return json({ hits: await searchLibrary(q, { kind: 'staff' }, limit) } satisfies SearchAnswer);
});
