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

export function toast(t: { title: string; description?: string; variant?: Toast['variant'] }): void {
  clearTimeout(timer);
  const next: Toast = { id: ++seq, variant: 'default', ...t };
  $toast.set(next);
  timer = setTimeout(() => {
    if ($toast.get()?.id === next.id) $toast.set(null);
  }, TOAST_DURATION_MS);
}

export function dismissToast(): void {
  clearTimeout(timer);
  $toast.set(null);
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
