// GET /api/media/portfolio?limit=&cursor=&category= (issue 23): one page of the portfolio.
import { z } from '../zod.ts';
import { PORTFOLIO_MAX_LIMIT, PORTFOLIO_PAGE_SIZE, categoryFromParam } from '../portfolio.ts';

export const portfolioPageQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int('limit must be a whole number')
    .min(1, `limit must be between 1 and ${PORTFOLIO_MAX_LIMIT}`)
    .max(PORTFOLIO_MAX_LIMIT, `limit must be between 1 and ${PORTFOLIO_MAX_LIMIT}`)
    .default(PORTFOLIO_PAGE_SIZE),
  cursor: z.string().max(64, 'cursor is not valid').regex(/^[A-Za-z0-9_-]+$/, 'cursor is not valid').optional(),
  category: z
    .string()
    .max(40)
    .transform((v, ctx) => {
      const c = categoryFromParam(v);
      if (!c) ctx.addIssue({ code: 'custom', message: 'category must be one of commercial, documentary, corporate, music-video' });
      return c ?? z.NEVER;
    })
    .optional(),
});

/** What the paged call answers; `items` are the public media fields the grids use. */
export interface PortfolioPageResponse<T> {
  items: T[];
  nextCursor: string | null;
  total: number;
}
