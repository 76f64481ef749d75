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

export function storeConsent(all: boolean): CookieConsent {
  const value: CookieConsent = { necessary: true, analytics: all, marketing: all, preferences: all, timestamp: new Date().toISOString() };
  try {
    localStorage.setItem(CONSENT_KEY, JSON.stringify(value));
  } catch {
    /* storage unavailable: the banner simply shows again next time */
  }
  return value;
}
