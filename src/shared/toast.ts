// The one toast store: at most one toast at a time, shown for 5000 ms (000 §9).
import { atom } from 'nanostores';

export const TOAST_DURATION_MS = 5000;

export interface Toast {
  id: number;
  title: string;
  description?: string;
  variant: 'default' | 'destructive';
  /** A link the toast offers (e.g. "Sign in again" after a session expired). */
  action?: { label: string; href: string };
}

type ToastInput = { title: string; description?: string; variant?: Toast['variant']; action?: Toast['action'] };

/**
 * Set by the fetch helper when a staff or client screen got a 401: the next toast (the failed
 * call's own, or the helper's fallback) offers to sign in again and come back (issue 19 #16).
 */
let signInAgain: { href: string; at: number } | null = null;
const SIGN_IN_AGAIN_WINDOW_MS = 3000;

export function offerSignInAgain(href: string): void {
  signInAgain = { href, at: Date.now() };
  const noted = signInAgain;
  // No caller toasted the failure (the portal shows its own inline alert and, per 001, no
  // error toast): offer the way back in a plain toast.
  setTimeout(() => {
    if (signInAgain !== noted) return;
    // One expiry fails every request in flight (a list, the bell's poll): the toast already
    // offering the way back stays, rather than a later 401 replacing what failed first.
    if ($toast.get()?.action?.href === href) {
      signInAgain = null;
      return;
    }
    toast({ title: 'Session expired', description: 'Your session has expired. Sign in again to continue.' });
  }, 100);
}

export const $toast = atom<Toast | null>(null);

let seq = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
/** Time left on the shown toast while its auto-hide is paused; null when running. */
let pausedRemaining: number | null = null;
let deadline = 0;

function hideAfter(id: number, ms: number): void {
  clearTimeout(timer);
  deadline = Date.now() + ms;
  timer = setTimeout(() => {
    if ($toast.get()?.id === id) $toast.set(null);
  }, ms);
}

export function toast(t: ToastInput): void {
  const next: Toast = { id: ++seq, variant: 'default', ...t };
  if (signInAgain && !next.action && Date.now() - signInAgain.at < SIGN_IN_AGAIN_WINDOW_MS) {
    next.action = { label: 'Sign in again', href: signInAgain.href };
    signInAgain = null;
  }
  pausedRemaining = null;
  $toast.set(next);
  hideAfter(next.id, TOAST_DURATION_MS);
}

export function dismissToast(): void {
  clearTimeout(timer);
  pausedRemaining = null;
  $toast.set(null);
}

/** Holds the auto-hide while the toast is being swiped, so it cannot vanish under the finger. */
export function pauseToast(): void {
  if (!$toast.get() || pausedRemaining !== null) return;
  clearTimeout(timer);
  pausedRemaining = Math.max(0, deadline - Date.now());
}

/** Restarts the auto-hide with the time that was left when it was paused. */
export function resumeToast(): void {
  const shown = $toast.get();
  if (!shown || pausedRemaining === null) return;
  const left = pausedRemaining;
  pausedRemaining = null;
  hideAfter(shown.id, left);
}

// Toasts survive a navigation (e.g. 'Login successful' shown on the next page).
const CARRY_KEY = 'studio-toast';
export function toastAfterNavigation(t: ToastInput): void {
  try {
    sessionStorage.setItem(CARRY_KEY, JSON.stringify(t));
  } catch {
    /* storage unavailable */
  }
}
export function takeCarriedToast(): void {
  try {
    const raw = sessionStorage.getItem(CARRY_KEY);
    if (raw) {
      sessionStorage.removeItem(CARRY_KEY);
      toast(JSON.parse(raw));
    }
  } catch {
    /* ignore */
  }
}
