// Which admin pages need which role or permission (000 §2 route table; decisions in docs/decisions.md).
export interface RouteRule {
  prefix: string;
  anyRole?: string[];
  permission?: string;
}

export const ADMIN_ROUTE_RULES: RouteRule[] = [
  // The route table says role Admin; Staff also land here after sign-in, so both are let in.
  { prefix: '/admin/dashboard', anyRole: ['Admin', 'Staff'] },
  { prefix: '/admin/users', permission: 'view:users' },
  { prefix: '/admin/clients', permission: 'view:clients' },
  { prefix: '/admin/roles', permission: 'edit:roles' },
  // The navigation reading (view:media) governs; uploading itself needs upload:media.
  { prefix: '/admin/media', permission: 'view:media' },
  { prefix: '/admin/website-customization', permission: 'edit:website' },
  { prefix: '/admin/enquiries', permission: 'view:enquiries' },
  { prefix: '/admin/share-links', permission: 'share:media' },
  // Proofing galleries hold library images (issue 42).
  { prefix: '/admin/galleries', permission: 'view:media' },
];

export type GuardOutcome = 'allow' | 'signin' | 'role' | 'permission';

export function checkAdminRoute(pathname: string, user: unknown, roles: string[], permissions: string[]): GuardOutcome {
  if (!pathname.startsWith('/admin')) return 'allow';
  if (!user) return 'signin';
  const rule = ADMIN_ROUTE_RULES.find((r) => pathname === r.prefix || pathname.startsWith(r.prefix + '/'));
  if (!rule) return 'allow';
  if (rule.anyRole && !rule.anyRole.some((r) => roles.includes(r))) return 'role';
  if (rule.permission && !permissions.includes(rule.permission)) return 'permission';
  return 'allow';
}

export { landingFor } from '../../shared/landing.ts';
