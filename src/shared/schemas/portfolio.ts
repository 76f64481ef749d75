// GET /api/media/portfolio?limit=&cursor=&category= (issue 23): one page of the portfolio.
import { z } from '../zod.ts';
import { PORTFOLIO_MAX_LIMIT, PORTFOLIO_PAGE_SIZE } from '../portfolio.ts';

export const portfolioPageQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int('limit must be a whole number')
    .min(1, `limit must be between 1 and ${PORTFOLIO_MAX_LIMIT}`)
    .max(PORTFOLIO_MAX_LIMIT, `limit must be between 1 and ${PORTFOLIO_MAX_LIMIT}`)
    .default(PORTFOLIO_PAGE_SIZE),
  cursor: z.string().max(64, 'cursor is not valid').regex(/^[A-Za-z0-9_-]+$/, 'cursor is not valid').optional(),
  // Checked against the studio's categories by the endpoint (they are edited in the admin).
  category: z.string().max(100, 'category is not one of the portfolio categories').optional(),
});

/** What the paged call answers; `items` are the public media fields the grids use. */
export interface PortfolioPageResponse<T> {
  items: T[];
  nextCursor: string | null;
  total: number;
}
