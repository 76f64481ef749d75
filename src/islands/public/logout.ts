import { apiRequest } from '../../shared/api.ts';
import { toast, toastAfterNavigation } from '../../shared/toast.ts';

/**
 * Signs the staff user out (000 §8). Success reloads the page so the server renders the
 * signed-out navigation, carrying the toast across. A failed call still counts as signed out
 * locally: the caller switches its view and a different toast explains it.
 */
export async function logout(onLocalSignOut: () => void): Promise<void> {
  try {
    await apiRequest('POST', '/api/logout');
    toastAfterNavigation({ title: 'Logged out', description: 'You have been successfully logged out.' });
    location.reload();
  } catch {
    onLocalSignOut();
    toast({ title: 'Logout completed', description: 'You have been logged out (session cleared locally).' });
  }
}
