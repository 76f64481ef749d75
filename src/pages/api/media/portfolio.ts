// GET /api/media/portfolio: the documents' full list; with limit, cursor or category, one page
// (issue 23: cursor-based, stable while items are added). Public.
import { endpoint, HttpError, json } from '../../../server/http.ts';
import { decodeCursor, listPortfolioMedia, listPortfolioPage } from '../../../server/media/queries.ts';
import { portfolioPageQuery } from '../../../shared/schemas/portfolio.ts';
import { categoryFromParam, categorySlug } from '../../../shared/portfolio.ts';
import { getPortfolioCategories } from '../../../server/settings/read.ts';

export const GET = endpoint(async (ctx) => {
  const params = ctx.url.searchParams;
  if (!params.has('limit') && !params.has('cursor') && !params.has('category')) return json(await listPortfolioMedia());
  const q = portfolioPageQuery.parse({ limit: params.get('limit') ?? undefined, cursor: params.get('cursor') ?? undefined, category: params.get('category') ?? undefined });
  const cursor = q.cursor ? decodeCursor(q.cursor) : null;
  if (q.cursor && !cursor) throw new HttpError(400, 'cursor is not valid');
  let category: string | null = null;
  if (q.category !== undefined) {
    const categories = await getPortfolioCategories();
    category = categoryFromParam(q.category, categories);
    if (!category) throw new HttpError(400, `category must be one of ${categories.map(categorySlug).join(', ')}`);
  }
  const page = await listPortfolioPage({ limit: q.limit, cursor, category });
  return json({ items: page.items, nextCursor: page.nextCursor, total: page.total });
});
