// Cookie consent record (000 §3, §4), kept in localStorage under `cookie-consent`.
export const CONSENT_KEY = 'cookie-consent';
export const BANNER_DELAY_MS = 1000;
export const BANNER_SLIDE_IN_MS = 100;
export const BANNER_HIDE_MS = 300;

export interface CookieConsent {
  necessary: true;
  analytics: boolean;
  marketing: boolean;
  preferences: boolean;
  timestamp: string;
}

export function readConsent(): CookieConsent | null {
  try {
    const raw = localStorage.getItem(CONSENT_KEY);
    return raw ? (JSON.parse(raw) as CookieConsent) : null;
  } catch {
    return null;
  }
}

/** The optional categories, in the order the banner's choices list them. */
export const OPTIONAL_CATEGORIES = ['analytics', 'marketing', 'preferences'] as const;
export type OptionalCategory = (typeof OPTIONAL_CATEGORIES)[number];
export type ConsentChoice = Record<OptionalCategory, boolean>;

/** Every optional category on (Accept All) or off (Reject All). */
export const allCategories = (on: boolean): ConsentChoice => ({ analytics: on, marketing: on, preferences: on });

/** Opens the banner's choices from anywhere on the page (the footer's "Cookie settings"). */
export const COOKIE_SETTINGS_ATTRIBUTE = 'data-cookie-settings';

export function storeConsent(choice: ConsentChoice): CookieConsent {
  const value: CookieConsent = { necessary: true, ...choice, timestamp: new Date().toISOString() };
  try {
    localStorage.setItem(CONSENT_KEY, JSON.stringify(value));
  } catch {
    /* storage unavailable: the banner simply shows again next time */
  }
  return value;
}
