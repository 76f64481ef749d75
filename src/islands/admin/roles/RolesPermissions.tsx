// Roles & Permissions (001 §2, §4, §5, §8): drag a permission onto a role to assign it.
import { useCallback, useEffect, useState } from 'react';
import { DndContext, DragOverlay, type Announcements, type DragEndEvent, type DragStartEvent } from '@dnd-kit/core';
import { ChevronDown, Info, Key, Plus, Shield } from 'lucide-react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import { permissionSchema, roleSchema, type PermissionRow, type RoleRow } from '../../../shared/schemas/roles.ts';
import { Button } from '../../ui/Button.tsx';
import { Card, CardBody, CardHeader } from '../../ui/Card.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { roleCollision, useRoleSensors } from './dnd.ts';
import { PermissionBody, PermissionItem } from './PermissionItem.tsx';
import { NameDescriptionDialog, type NameDescription } from './RoleDialogs.tsx';
import { RoleZone } from './RoleZone.tsx';

const failed = (title: string, e: unknown) => toast({ title, description: errorMessage(e), variant: 'destructive' });

type RoleDialogState = { mode: 'create' } | { mode: 'edit'; role: RoleRow } | null;

const permissionOf = (data: unknown) => (data as { permission?: PermissionRow } | undefined)?.permission;
const roleOf = (data: unknown) => (data as { role?: RoleRow } | undefined)?.role;

const announcements: Announcements = {
  onDragStart: ({ active }) => `Picked up permission ${permissionOf(active.data.current)?.name}. Use the arrow keys to move it onto a role, Space to drop, Escape to cancel.`,
  onDragOver: ({ active, over }) =>
    over ? `Permission ${permissionOf(active.data.current)?.name} is over role ${roleOf(over.data.current)?.name}.` : `Permission ${permissionOf(active.data.current)?.name} is no longer over a role.`,
  onDragEnd: ({ active, over }) =>
    over ? `Permission ${permissionOf(active.data.current)?.name} dropped on role ${roleOf(over.data.current)?.name}.` : `Permission ${permissionOf(active.data.current)?.name} dropped outside any role.`,
  onDragCancel: ({ active }) => `Dragging permission ${permissionOf(active.data.current)?.name} was cancelled.`,
};

export default function RolesPermissions() {
  const [roles, setRoles] = useState<RoleRow[] | null>(null);
  const [permissions, setPermissions] = useState<PermissionRow[] | null>(null);
  const [dragged, setDragged] = useState<PermissionRow | null>(null);
  const [roleDialog, setRoleDialog] = useState<RoleDialogState>(null);
  const [permissionDialog, setPermissionDialog] = useState(false);
  const [policyPending, setPolicyPending] = useState<number | null>(null);
  const sensors = useRoleSensors();

  const loadRoles = useCallback(async () => {
    try {
      setRoles(await apiJson<RoleRow[]>('GET', '/api/roles'));
    } catch (e) {
      setRoles([]);
      failed('Failed to load roles', e);
    }
  }, []);
  const loadPermissions = useCallback(async () => {
    try {
      setPermissions(await apiJson<PermissionRow[]>('GET', '/api/permissions'));
    } catch (e) {
      setPermissions([]);
      failed('Failed to load permissions', e);
    }
  }, []);
  useEffect(() => {
    void loadRoles();
    void loadPermissions();
  }, [loadRoles, loadPermissions]);

  async function assign(role: RoleRow, permission: PermissionRow) {
    if (role.permissions.some((p) => p.id === permission.id)) return;
    try {
      await apiJson('POST', `/api/roles/${role.id}/permissions/${permission.id}`);
      toast({ title: 'Permission assigned', description: `${permission.name} assigned to ${role.name}.` });
    } catch (e) {
      failed('Failed to assign permission', e);
    }
    await loadRoles();
  }

  async function removePermission(role: RoleRow, permissionId: number) {
    const name = role.permissions.find((p) => p.id === permissionId)?.name ?? 'Permission';
    try {
      await apiJson('DELETE', `/api/roles/${role.id}/permissions/${permissionId}`);
      toast({ title: 'Permission removed', description: `${name} removed from ${role.name}.` });
    } catch (e) {
      failed('Failed to remove permission', e);
    }
    await loadRoles();
  }

  // Issue 56: whether the role's users must sign in with a second factor.
  async function setPolicy(role: RoleRow, required: boolean) {
    setPolicyPending(role.id);
    try {
      await apiJson('PUT', `/api/roles/${role.id}/second-factor`, { required });
      toast({
        title: required ? 'Second factor required' : 'Second factor no longer required',
        description: required ? `Users holding ${role.name} set up an authenticator app before they go on.` : `Users holding ${role.name} may sign in with a password alone.`,
      });
    } catch (e) {
      failed('Failed to change the sign-in policy', e);
    }
    await loadRoles();
    setPolicyPending(null);
  }

  async function deleteRole(role: RoleRow) {
    if (!window.confirm('Are you sure you want to delete this role?')) return;
    try {
      await apiJson('DELETE', `/api/roles/${role.id}`);
      toast({ title: 'Role deleted', description: `${role.name} has been deleted.` });
    } catch (e) {
      failed('Failed to delete role', e);
    }
    await loadRoles();
  }

  async function saveRole(data: NameDescription) {
    const editing = roleDialog?.mode === 'edit' ? roleDialog.role : null;
    try {
      if (editing) await apiJson('PUT', `/api/roles/${editing.id}`, data);
      else await apiJson('POST', '/api/roles', data);
      toast({ title: editing ? 'Role updated' : 'Role created', description: `${data.name} has been ${editing ? 'updated' : 'created'}.` });
      await loadRoles();
      return true;
    } catch (e) {
      failed(editing ? 'Failed to update role' : 'Failed to create role', e);
      return false;
    }
  }

  async function createPermission(data: NameDescription) {
    try {
      await apiJson('POST', '/api/permissions', data);
      toast({ title: 'Permission created', description: `${data.name} has been created.` });
      await loadPermissions();
      return true;
    } catch (e) {
      failed('Failed to create permission', e);
      return false;
    }
  }

  async function deletePermission(permission: PermissionRow) {
    if (!window.confirm(`Delete the permission ${permission.name}?`)) return;
    try {
      await apiJson('DELETE', `/api/permissions/${permission.id}`);
      toast({ title: 'Permission deleted', description: `${permission.name} has been deleted.` });
    } catch (e) {
      failed('Failed to delete permission', e);
    }
    await loadPermissions();
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    setDragged(null);
    const permission = permissionOf(active.data.current);
    const role = roleOf(over?.data.current);
    // Protected zones are disabled droppables, so they never appear as `over`.
    if (permission && role && !role.isProtected) void assign(role, permission);
  }

  const editingRole = roleDialog?.mode === 'edit' ? roleDialog.role : null;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Roles &amp; Permissions</h1>
          <p className="mt-1 text-fg-muted">Manage access control and user permissions</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setPermissionDialog(true)}>
            <Key size={16} aria-hidden="true" />
            Add Permission
          </Button>
          <Button onClick={() => setRoleDialog({ mode: 'create' })}>
            <Plus size={16} aria-hidden="true" />
            Add Role
          </Button>
        </div>
      </div>

      <details open className="group rounded-xl border border-line bg-raised">
        <summary className="flex cursor-pointer list-none items-center justify-between gap-2 px-5 py-3 font-medium [&::-webkit-details-marker]:hidden">
          <span className="flex items-center gap-2">
            <Info size={16} aria-hidden="true" className="text-accent" />
            How to use
          </span>
          <ChevronDown size={16} aria-hidden="true" className="transition-transform group-open:rotate-180" />
        </summary>
        <ul className="list-disc space-y-1 px-10 pb-4 text-sm text-fg-muted">
          <li>Drag permissions from the Available Permissions panel onto a role to assign them (with the keyboard: focus a permission, press Space, move with the arrow keys, press Space to drop).</li>
          <li>Use the trash icon beside a permission in a role to remove it.</li>
          <li>The Client role is read-only and protected: it cannot be edited, deleted or given permissions.</li>
          <li>"Require a second factor" makes the role's users sign in with a code from an authenticator app after their password; those without one set it up at their next sign-in, before anything else.</li>
        </ul>
      </details>

      <DndContext
        sensors={sensors}
        collisionDetection={roleCollision}
        accessibility={{ announcements }}
        onDragStart={({ active }: DragStartEvent) => setDragged(permissionOf(active.data.current) ?? null)}
        onDragCancel={() => setDragged(null)}
        onDragEnd={onDragEnd}
      >
        <div className="grid gap-6 lg:grid-cols-3">
          <section className="space-y-4 lg:col-span-2" aria-labelledby="roles-heading">
            <h2 id="roles-heading" className="flex items-center gap-2 text-lg font-semibold">
              <Shield size={18} aria-hidden="true" />
              Roles
            </h2>
            {roles === null ? (
              Array.from({ length: 3 }, (_, i) => <Skeleton key={i} className="h-36 w-full rounded-xl" />)
            ) : roles.length === 0 ? (
              <EmptyState title="No roles found" description="Create your first role to get started." action={<Button onClick={() => setRoleDialog({ mode: 'create' })}>Add Role</Button>} />
            ) : (
              roles.map((role) => (
                <RoleZone
                  key={role.id}
                  role={role}
                  dragging={!!dragged}
                  onEdit={() => setRoleDialog({ mode: 'edit', role })}
                  onDelete={() => void deleteRole(role)}
                  onRemove={(pid) => void removePermission(role, pid)}
                  onPolicy={(required) => void setPolicy(role, required)}
                  policyPending={policyPending === role.id}
                />
              ))
            )}
          </section>

          <section aria-labelledby="permissions-heading">
            <Card className="lg:sticky lg:top-24">
              <CardHeader title={<span id="permissions-heading">Available Permissions</span>} description="Drag onto a role to assign" />
              <CardBody>
                {permissions === null ? (
                  <div className="space-y-2">
                    {Array.from({ length: 5 }, (_, i) => (
                      <Skeleton key={i} className="h-14 w-full" />
                    ))}
                  </div>
                ) : permissions.length === 0 ? (
                  <EmptyState title="No permissions found" description="Create your first permission to get started." action={<Button onClick={() => setPermissionDialog(true)}>Add Permission</Button>} />
                ) : (
                  <ul className="space-y-2 lg:max-h-[70vh] lg:overflow-y-auto" aria-label="Available Permissions">
                    {permissions.map((p) => (
                      <PermissionItem key={p.id} permission={p} onDelete={() => void deletePermission(p)} />
                    ))}
                  </ul>
                )}
              </CardBody>
            </Card>
          </section>
        </div>
        <DragOverlay dropAnimation={null}>
          {dragged && (
            <div className="flex w-72 cursor-grabbing items-start gap-2 rounded-lg border border-accent bg-raised p-3 shadow-xl">
              <PermissionBody permission={dragged} />
            </div>
          )}
        </DragOverlay>
      </DndContext>

      <NameDescriptionDialog
        open={!!roleDialog}
        title={editingRole ? 'Edit Role' : 'Create New Role'}
        description={editingRole ? 'Change the role’s name and description.' : 'A role groups permissions; give it to users on the User Management screen.'}
        initial={editingRole ? { name: editingRole.name, description: editingRole.description ?? '' } : { name: '', description: '' }}
        schema={roleSchema}
        submitLabel={editingRole ? 'Update Role' : 'Create Role'}
        onClose={() => setRoleDialog(null)}
        onSubmit={saveRole}
      />
      <NameDescriptionDialog
        open={permissionDialog}
        title="Create New Permission"
        description="Name it 'verb:resource', e.g. view:media."
        initial={{ name: '', description: '' }}
        schema={permissionSchema}
        namePlaceholder="e.g. view:media"
        submitLabel="Create Permission"
        onClose={() => setPermissionDialog(false)}
        onSubmit={createPermission}
      />
    </div>
  );
}
