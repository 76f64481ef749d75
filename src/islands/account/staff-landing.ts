import { apiJson } from '../../shared/api.ts';
import { withRetries } from '../../shared/forms.ts';
import { landingFor, safeReturnPath } from '../../shared/landing.ts';

/**
 * Goes where a signed-in staff user belongs: back to the screen whose session expired (`?next=`,
 * same-site only), else the landing page of their roles. Never resolves: the page is leaving.
 */
export async function goToStaffLanding(): Promise<never> {
  const next = safeReturnPath(new URLSearchParams(window.location.search).get('next'));
  let target = next ?? '/';
  if (!next) {
    try {
      const names = (path: string) => withRetries(() => apiJson<{ name: string }[]>('GET', path), 3, 1000).then((rows) => rows.map((r) => r.name));
      const [roles, permissions] = await Promise.all([names('/api/user/roles'), names('/api/user/permissions')]);
      target = landingFor(roles, permissions);
    } catch (err) {
      console.error('Could not load roles', err);
    }
  }
  window.location.assign(target);
  // Keep buttons in their pending state while the browser navigates.
  return new Promise<never>(() => {});
}
