// Admin navigation (001 §2): each link and the permission that shows it on desktop.
export interface AdminNavLink {
  href: string;
  label: string;
  /** Shown on desktop only with this permission; undefined = always. */
  permission?: string;
}

export const ADMIN_NAV_LINKS: AdminNavLink[] = [
  { href: '/admin/dashboard', label: 'Dashboard' },
  { href: '/admin/media', label: 'Media', permission: 'view:media' },
  { href: '/admin/galleries', label: 'Galleries', permission: 'view:media' },
  { href: '/admin/clients', label: 'Clients', permission: 'view:clients' },
  { href: '/admin/share-links', label: 'Share links', permission: 'share:media' },
  { href: '/admin/enquiries', label: 'Enquiries', permission: 'view:enquiries' },
  { href: '/admin/website-customization', label: 'Website', permission: 'edit:website' },
  { href: '/admin/roles', label: 'Roles', permission: 'edit:roles' },
  { href: '/admin/users', label: 'Users', permission: 'edit:users' },
  { href: '/admin/audit', label: 'Audit log', permission: 'view:audit' },
];

export function visibleLinks(permissions: string[]): AdminNavLink[] {
  return ADMIN_NAV_LINKS.filter((l) => !l.permission || permissions.includes(l.permission));
}

export function isActiveLink(pathname: string, href: string): boolean {
  return pathname === href || pathname.startsWith(href + '/');
}
