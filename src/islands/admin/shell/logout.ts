import { apiRequest } from '../../../shared/api.ts';
import { toastAfterNavigation } from '../../../shared/toast.ts';

/** Staff logout (000 §8): the server ends the session; either way the user lands on /auth. */
export async function logout(): Promise<void> {
  try {
    await apiRequest('POST', '/api/logout');
    toastAfterNavigation({ title: 'Logged out', description: 'You have been successfully logged out.' });
  } catch {
    toastAfterNavigation({ title: 'Logout completed', description: 'You have been logged out (session cleared locally).' });
  }
  window.location.assign('/auth');
}
