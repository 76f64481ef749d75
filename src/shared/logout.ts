import { ApiError, apiRequest } from './api.ts';
import { toast, toastAfterNavigation } from './toast.ts';
import { forgetKeptOnDevice } from './kept-on-device.ts';

const LOGGED_OUT = { title: 'Logged out', description: 'You have been successfully logged out.' };
const CLEARED_LOCALLY = { title: 'Logout completed', description: 'You have been logged out (session cleared locally).' };

/** How long a logout retried after a network failure is waited for before leaving. */
const RETRY_WAIT_MS = 3000;

/**
 * Posts a logout; when the server could not be reached (no answer at all) it tries once more
 * with a keepalive request, which outlives a navigation. The retry is awaited (up to a few
 * seconds) before the caller navigates: otherwise the sign-in page can be asked for while the
 * session still stands and sends the browser straight back into the admin area. Any answer
 * from the server, errors included, clears the HttpOnly cookie (src/server/auth/logout.ts),
 * which the page itself cannot do.
 */
export async function postLogout(path: '/api/logout' | '/api/client/logout'): Promise<void> {
  try {
    await apiRequest('POST', path);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    const retry = fetch(path, { method: 'POST', credentials: 'include', keepalive: true });
    const answered = await Promise.race([
      retry.then((res) => res.ok, () => false),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), RETRY_WAIT_MS)),
    ]);
    if (!answered) throw e;
  }
}

/**
 * Staff logout (000 §4, §8). The server ends the session; even when that call fails the user
 * counts as signed out locally. With `redirectTo` the browser then goes there (admin: /auth);
 * without it the page reloads on success so the server renders the signed-out navigation, and
 * on failure `onLocalSignOut` switches the view in place.
 */
export async function logoutStaff(opts: { redirectTo?: string; onLocalSignOut?: () => void } = {}): Promise<void> {
  // Signed out locally whatever the server says: what was typed for uploads goes too.
  forgetKeptOnDevice();
  try {
    await postLogout('/api/logout');
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
