// Theme preference: light, dark or system; kept in localStorage and mirrored in a cookie
// so the server can put the right class on <html> in the first response.
import { atom } from 'nanostores';

export type ThemePreference = 'light' | 'dark' | 'system';
export const THEME_STORAGE_KEY = 'studio-theme';
export const PUBLIC_THEME_PATHS = ['/', '/portfolio', '/about', '/services', '/contact'];

export function defaultThemeFor(pathname: string): ThemePreference {
  const p = pathname.replace(/\/+$/, '') || '/';
  // Watch pages (/portfolio/{slug}) belong with the portfolio.
  return PUBLIC_THEME_PATHS.includes(p) || p.startsWith('/portfolio/') ? 'dark' : 'system';
}

export function resolveTheme(pref: ThemePreference): 'light' | 'dark' {
  if (pref !== 'system') return pref;
  return typeof matchMedia !== 'undefined' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function readStored(): ThemePreference | null {
  try {
    const v = localStorage.getItem(THEME_STORAGE_KEY);
    return v === 'light' || v === 'dark' || v === 'system' ? v : null;
  } catch {
    return null;
  }
}

export const $theme = atom<ThemePreference>(
  typeof window === 'undefined' ? 'dark' : (readStored() ?? defaultThemeFor(location.pathname)),
);

export function applyTheme(pref: ThemePreference) {
  const dark = resolveTheme(pref) === 'dark';
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
}

export function setTheme(pref: ThemePreference) {
  $theme.set(pref);
  try {
    localStorage.setItem(THEME_STORAGE_KEY, pref);
  } catch {
    /* private mode */
  }
  document.cookie = `${THEME_STORAGE_KEY}=${pref}; Path=/; Max-Age=31536000; SameSite=Lax`;
  applyTheme(pref);
}
