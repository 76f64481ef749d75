// Which pages the public page cache holds, and under what key. Kept apart from page-cache.ts
// (which needs the database) so the rule can be tested on its own.

export const CACHEABLE_PATHS = new Set(['/', '/portfolio', '/about', '/services', '/contact', '/privacy-policy', '/terms-of-service']);

/** Watch pages (issue 21): slugs are lower-case ASCII, digits and dashes (media/slugs.ts). */
export const WATCH_PATH_RE = /^\/portfolio\/[a-z0-9][a-z0-9-]{0,99}$/;
const CATEGORY_RE = /^[a-z0-9-]{1,40}$/;
const PAGE_RE = /^[1-9]\d{0,3}$/;

/**
 * The cached form of a public URL, or null when it is not cached: the fixed pages and watch
 * pages without a query; the portfolio also with `category` and `page` (issue 23), in a
 * fixed order. Any other query (tracking parameters...) is rendered fresh, as before.
 */
export function cacheablePath(pathname: string, search = ''): string | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (!CACHEABLE_PATHS.has(path) && !WATCH_PATH_RE.test(path)) return null;
  if (!search || search === '?') return path;
  if (path !== '/portfolio') return null;
  const params = new URLSearchParams(search);
  let category = '';
  let page = '';
  for (const [name, value] of params) {
    if (name === 'category' && !category && CATEGORY_RE.test(value)) category = value;
    else if (name === 'page' && !page && PAGE_RE.test(value)) page = value;
    else return null;
  }
  const parts = [category && `category=${category}`, page && `page=${page}`].filter(Boolean);
  return parts.length ? `${path}?${parts.join('&')}` : path;
}

/**
 * Path (with its cacheable query), theme class and the current year: the footer prints the
 * year (000 §2), and no save bumps the site version on 1 January, so a new year has to be a
 * new entry by itself. The year is the server's local one, as the footer's
 * `new Date().getFullYear()` reads it.
 */
export function cacheKey(pathname: string, themeClass: string, now: Date = new Date(), search = ''): string | null {
  const path = cacheablePath(pathname, search);
  return path ? `${path}|${themeClass}|${now.getFullYear()}` : null;
}
