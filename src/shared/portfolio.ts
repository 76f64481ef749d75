// The portfolio's categories and paging rules (000 §5, §9; issue 23), shared by the server
// (queries, the page, the API) and the grid island.
export const CATEGORIES = ['All', 'Commercial', 'Documentary', 'Corporate', 'Music Video'] as const;
export type Category = (typeof CATEGORIES)[number];
/** The filter appears only above this many portfolio items (000 §9). */
export const FILTER_THRESHOLD = 12;
/** Items per portfolio page and per "Load more". */
export const PORTFOLIO_PAGE_SIZE = 24;
export const PORTFOLIO_MAX_LIMIT = 100;

/** "Music Video" <-> "music-video": the linkable form used in `?category=`. */
export const categorySlug = (c: Category) => c.toLowerCase().replace(/\s+/g, '-');

/** The category a `?category=` value names (slug or name, any case), or null. */
export function categoryFromParam(value: string | null | undefined): Exclude<Category, 'All'> | null {
  if (!value) return null;
  const wanted = value.trim().toLowerCase().replace(/[-\s]+/g, '-');
  const hit = CATEGORIES.find((c) => c !== 'All' && categorySlug(c) === wanted);
  return (hit as Exclude<Category, 'All'> | undefined) ?? null;
}

/** 000 §5: an item matches when one of its tags equals the lowercased category name. */
export const categoryTag = (c: Category) => c.toLowerCase();

/** The portfolio URL for a category and page (page 1 and "All" are left out). */
export function portfolioHref(category: Category | null, page = 1): string {
  const params = new URLSearchParams();
  if (category && category !== 'All') params.set('category', categorySlug(category));
  if (page > 1) params.set('page', String(page));
  const q = params.toString();
  return q ? `/portfolio?${q}` : '/portfolio';
}
