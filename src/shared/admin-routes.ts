// Which admin pages need which role or permission (000 §2 route table; decisions in
// docs/decisions.md), in the order of the admin navigation: the middleware guards the pages with
// it, and the sign-in landing, the navigation's Dashboard link and /admin send a user to the
// first page of it they may open (issue 53), so a custom role never lands on a 403.
export interface RouteRule {
  prefix: string;
  anyRole?: string[];
  permission?: string;
}

export const ADMIN_ROUTE_RULES: RouteRule[] = [
  // The route table says role Admin; Staff also land here after sign-in, so both are let in.
  { prefix: '/admin/dashboard', anyRole: ['Admin', 'Staff'] },
  // The navigation reading (view:media) governs; uploading itself needs upload:media.
  { prefix: '/admin/media', permission: 'view:media' },
  // Proofing galleries hold library images (issue 42).
  { prefix: '/admin/galleries', permission: 'view:media' },
  { prefix: '/admin/clients', permission: 'view:clients' },
  { prefix: '/admin/share-links', permission: 'share:media' },
  { prefix: '/admin/enquiries', permission: 'view:enquiries' },
  { prefix: '/admin/website-customization', permission: 'edit:website' },
  { prefix: '/admin/roles', permission: 'edit:roles' },
  { prefix: '/admin/users', permission: 'view:users' },
  { prefix: '/admin/audit', permission: 'view:audit' },
];

export const ADMIN_DASHBOARD = '/admin/dashboard';

export function ruleFor(pathname: string): RouteRule | undefined {
  return ADMIN_ROUTE_RULES.find((r) => pathname === r.prefix || pathname.startsWith(r.prefix + '/'));
}

/** What stops these roles and permissions from opening the rule's pages, or null. */
export function missing(rule: RouteRule, roles: string[], permissions: string[]): 'role' | 'permission' | null {
  if (rule.anyRole && !rule.anyRole.some((r) => roles.includes(r))) return 'role';
  if (rule.permission && !permissions.includes(rule.permission)) return 'permission';
  return null;
}

/** The first admin page these roles and permissions may open (the dashboard for Admin and Staff), or null. */
export function firstAdminPage(roles: string[], permissions: string[]): string | null {
  return ADMIN_ROUTE_RULES.find((r) => !missing(r, roles, permissions))?.prefix ?? null;
}
