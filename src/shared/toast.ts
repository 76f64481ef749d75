// The one toast store: at most one toast at a time, shown for 5000 ms (000 §9).
import { atom } from 'nanostores';

export const TOAST_DURATION_MS = 5000;

export interface Toast {
  id: number;
  title: string;
  description?: string;
  variant: 'default' | 'destructive';
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

export function toast(t: { title: string; description?: string; variant?: Toast['variant'] }): void {
  const next: Toast = { id: ++seq, variant: 'default', ...t };
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
export function toastAfterNavigation(t: { title: string; description?: string; variant?: Toast['variant'] }): void {
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
