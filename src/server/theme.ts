import type { AstroCookies } from 'astro';
import { defaultThemeFor, THEME_STORAGE_KEY, type ThemePreference } from '../shared/theme.ts';

/** The class the server puts on <html>: right for light/dark, a best guess for system. */
export function serverThemeClass(cookies: AstroCookies, pathname: string): 'dark' | '' {
  const v = cookies.get(THEME_STORAGE_KEY)?.value;
  const pref: ThemePreference = v === 'light' || v === 'dark' || v === 'system' ? v : defaultThemeFor(pathname);
  return pref === 'light' ? '' : 'dark';
}
