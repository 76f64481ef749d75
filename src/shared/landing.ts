/** Where a staff user goes after signing in (000 §2: Admin/Staff → admin, Client → portal, else /). */
export function landingFor(roles: string[]): string {
  if (roles.includes('Admin') || roles.includes('Staff')) return '/admin/dashboard';
  if (roles.includes('Client')) return '/client/dashboard';
  return '/';
}
