// The portfolio's categories and paging rules (000 §5, §9; issue 23), shared by the server
// (queries, the page, the API) and the grid island.
/**
 * The documents' four categories (000 §5): the default list. Staff edit the list under
 * Website → Portfolio (issue 32), so a studio can add "Events" or "Weddings"; "All" always
 * leads the filter and is not stored.
 */
export const DEFAULT_CATEGORIES = ['Commercial', 'Documentary', 'Corporate', 'Music Video'] as const;
export const ALL = 'All';
export type Category = string;
/** The filter appears only above this many portfolio items (000 §9). */
export const FILTER_THRESHOLD = 12;
/** Items per portfolio page and per "Load more". */
export const PORTFOLIO_PAGE_SIZE = 24;
export const PORTFOLIO_MAX_LIMIT = 100;

/** "Music Video" <-> "music-video": the linkable form used in `?category=`. */
export const categorySlug = (c: Category) =>
  c
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');

/** The category of `categories` a `?category=` value names (slug or name, any case), or null. */
export function categoryFromParam(value: string | null | undefined, categories: readonly Category[]): Category | null {
  if (!value) return null;
  const wanted = categorySlug(value);
  return categories.find((c) => categorySlug(c) === wanted) ?? null;
}

/** 000 §5: an item matches when one of its tags equals the lowercased category name. */
export const categoryTag = (c: Category) => c.toLowerCase();

/** The portfolio URL for a category and page (page 1 and "All" are left out). */
export function portfolioHref(category: Category | null, page = 1): string {
  const params = new URLSearchParams();
  if (category && category !== ALL) params.set('category', categorySlug(category));
  if (page > 1) params.set('page', String(page));
  const q = params.toString();
  return q ? `/portfolio?${q}` : '/portfolio';
}
