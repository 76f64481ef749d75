// A share link's guests search (issue 54, item 5): the captions and the studio's notes of what
// the link shows them, once they have opened it (and its password, if it has one).
import { endpoint, json } from '../../../../server/http.ts';
import { requireVisit } from '../../../../server/sharing/access.ts';
import { searchLibrary } from '../../../../server/search/query.ts';
import { searchQueryFrom, type SearchAnswer } from '../../../../shared/schemas/search.ts';

export const GET = endpoint(async (ctx) => {
  const { link } = await requireVisit(ctx, ctx.params.token);
  const { q, limit } = searchQueryFrom(ctx.url.searchParams);
  return json({ hits: await searchLibrary(q, { kind: 'link', linkId: link.id }, limit) } satisfies SearchAnswer);
});
