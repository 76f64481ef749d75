import { apiRequest } from './api.ts';
import { toast, toastAfterNavigation } from './toast.ts';

const LOGGED_OUT = { title: 'Logged out', description: 'You have been successfully logged out.' };
const CLEARED_LOCALLY = { title: 'Logout completed', description: 'You have been logged out (session cleared locally).' };

/**
 * Staff logout (000 §4, §8). The server ends the session; even when that call fails the user
 * counts as signed out locally. With `redirectTo` the browser then goes there (admin: /auth);
 * without it the page reloads on success so the server renders the signed-out navigation, and
 * on failure `onLocalSignOut` switches the view in place.
 */
export async function logoutStaff(opts: { redirectTo?: string; onLocalSignOut?: () => void } = {}): Promise<void> {
  try {
    await apiRequest('POST', '/api/logout');
    toastAfterNavigation(LOGGED_OUT);
    if (opts.redirectTo) window.location.assign(opts.redirectTo);
    else window.location.reload();
  } catch {
    if (opts.redirectTo) {
      toastAfterNavigation(CLEARED_LOCALLY);
      window.location.assign(opts.redirectTo);
    } else {
      opts.onLocalSignOut?.();
      toast(CLEARED_LOCALLY);
    }
  }
}
