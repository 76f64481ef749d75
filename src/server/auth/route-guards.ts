// The admin pages' guard (the rules are in src/shared/admin-routes.ts, shared with the landing).
import { missing, ruleFor } from '../../shared/admin-routes.ts';

export type GuardOutcome = 'allow' | 'signin' | 'role' | 'permission';

export function checkAdminRoute(pathname: string, user: unknown, roles: string[], permissions: string[]): GuardOutcome {
  if (!pathname.startsWith('/admin')) return 'allow';
  if (!user) return 'signin';
  const rule = ruleFor(pathname);
  return (rule && missing(rule, roles, permissions)) || 'allow';
}
