// Which pages the public page cache holds, and under what key. Kept apart from page-cache.ts
// (which needs the database) so the rule can be tested on its own.

export const CACHEABLE_PATHS = new Set(['/', '/portfolio', '/about', '/services', '/contact', '/privacy-policy']);

/**
 * Path, theme class and the current year: the footer prints the year (000 §2), and no save
 * bumps the site version on 1 January, so a new year has to be a new entry by itself. The
 * year is the server's local one, as the footer's `new Date().getFullYear()` reads it.
 */
export function cacheKey(pathname: string, themeClass: string, now: Date = new Date()): string | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return CACHEABLE_PATHS.has(path) ? `${path}|${themeClass}|${now.getFullYear()}` : null;
}
