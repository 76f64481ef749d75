// One role as a drop zone: its permissions (each removable) and its edit/delete buttons.
import { useDroppable } from '@dnd-kit/core';
import { Lock, Pencil, Shield, ShieldCheck, Trash2 } from 'lucide-react';
import type { RoleRow } from '../../../shared/schemas/roles.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card, CardBody } from '../../ui/Card.tsx';
import { Switch } from '../../ui/Switch.tsx';

/** Roles a stolen password would open most to (issue 56): a second factor is suggested for them. */
const SENSITIVE = ['share:media', 'edit:users', 'edit:roles'];

export function RoleZone({
  role,
  dragging,
  onEdit,
  onDelete,
  onRemove,
  onPolicy,
  policyPending = false,
}: {
  role: RoleRow;
  dragging: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onRemove: (permissionId: number) => void;
  /** Require a second factor of the role's users, or not (issue 56). */
  onPolicy: (required: boolean) => void;
  policyPending?: boolean;
}) {
  const sensitive = role.name === 'Admin' || role.permissions.some((p) => SENSITIVE.includes(p.name));
  const locked = role.isProtected;
  // The protected role is not a drop target at all.
  const { setNodeRef, isOver } = useDroppable({ id: `role-${role.id}`, data: { role }, disabled: locked });
  const ring = isOver ? 'border-accent ring-2 ring-accent' : dragging && !locked ? 'border-dashed border-accent/60' : '';
  return (
    <div ref={setNodeRef} data-testid="role-zone" data-role={role.name} aria-label={`Role ${role.name}`} role="region">
    <Card className={`transition-colors ${ring}`}>
      <CardBody className="space-y-3">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <h3 className="flex flex-wrap items-center gap-2 text-base font-semibold" title={role.name}>
              {locked ? <Lock size={16} aria-hidden="true" className="text-fg-muted" /> : <Shield size={16} aria-hidden="true" className="text-accent" />}
              {role.name}
              {locked && <Badge tone="outline">Read Only</Badge>}
              {role.requiresSecondFactor && (
                <Badge tone="success">
                  <ShieldCheck size={12} aria-hidden="true" /> 2-step
                </Badge>
              )}
            </h3>
            {role.description && <p className="mt-1 text-sm text-fg-muted">{role.description}</p>}
          </div>
          <div className="flex shrink-0 gap-1">
            <Button variant="ghost" size="icon" aria-label={`Edit role ${role.name}`} disabled={locked} onClick={onEdit}>
              <Pencil size={16} aria-hidden="true" />
            </Button>
            <Button variant="ghost" size="icon" className="text-danger" aria-label={`Delete role ${role.name}`} disabled={locked} onClick={onDelete}>
              <Trash2 size={16} aria-hidden="true" />
            </Button>
          </div>
        </div>
        <div className={`min-h-16 rounded-lg border border-line p-2 ${isOver ? 'bg-muted' : 'bg-bg/40'}`}>
          {role.permissions.length === 0 ? (
            <p className="px-2 py-3 text-center text-sm text-fg-muted">
              {locked ? 'Protected role - no permissions' : 'Drop permissions here'}
            </p>
          ) : (
            <ul className="flex flex-wrap gap-2" aria-label={`Permissions of ${role.name}`}>
              {role.permissions.map((p) => (
                <li key={p.id} className="inline-flex items-center gap-1 rounded-full border border-line bg-raised py-0.5 pl-3 pr-1 text-xs font-medium" title={p.description ?? undefined}>
                  {p.name}
                  {!locked && (
                    <button
                      type="button"
                      aria-label={`Remove ${p.name} from ${role.name}`}
                      onClick={() => onRemove(p.id)}
                      className="rounded-full p-1 text-fg-muted hover:bg-muted hover:text-danger"
                    >
                      <Trash2 size={12} aria-hidden="true" />
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          {locked && role.permissions.length > 0 && <p className="mt-2 px-2 text-xs text-fg-muted">Role is read-only</p>}
        </div>
        {!locked && (
          <Switch
            label="Require a second factor"
            description={
              role.requiresSecondFactor
                ? 'Its users sign in with a code from an authenticator app, and set one up at their next sign-in.'
                : sensitive
                  ? `Recommended: ${role.name === 'Admin' ? 'administrators' : 'this role'} can ${role.permissions.some((p) => p.name === 'share:media') ? 'share media outside the studio' : 'manage accounts'}.`
                  : 'Its users would sign in with a code from an authenticator app too.'
            }
            checked={role.requiresSecondFactor}
            disabled={policyPending}
            onChange={onPolicy}
          />
        )}
      </CardBody>
    </Card>
    </div>
  );
}
